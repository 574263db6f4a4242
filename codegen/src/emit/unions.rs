//! Unions: an enum with one variant per branch; `Serialize` writes the tag (or lets the payload
//! write it), `Deserialize` reads the tag first when it can (see the runtime's `tagged`) or
//! picks the branch by the value's shape (the runtime's `untagged`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::docs;
use super::paths::Paths;
use super::types::{rust_type, seed, static_name, Statics};
use super::{deserialize_call, Options};
use crate::model::{Item, Kind, Model, Payload, Select, Ty, Union, Variant};

/// The enum `item` and its impls.
pub fn emit(
    item: &Item,
    u: &Union,
    model: &Model,
    paths: &Paths,
    options: &Options,
) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let mut statics = Statics::default();
    let definition = definition(item, u, paths, options);
    let serialize = serialize(item, u, paths);
    let deserialize = match &u.tag {
        Some(tag) => tagged(item, u, tag, paths),
        None => untagged(item, u, model, paths, &mut statics),
    };
    let conversions = conversions(item, u, model, paths);
    let contract = paths.contract();
    let statics = &statics.items;
    quote! {
        #definition
        #conversions
        #serialize
        #deserialize
        impl rt::Sealed for #ident {}
        impl #contract for #ident {}
        #(#statics)*
    }
}

fn payload_type(payload: &Payload, paths: &Paths) -> Option<TokenStream> {
    match payload {
        Payload::Unit => None,
        Payload::Ty(ty) => Some(rust_type(ty, paths)),
        Payload::WithTag(name) => {
            let ident = format_ident!("{}", name);
            Some(quote!(#ident))
        }
        Payload::Raw => Some(paths.name("Value")),
    }
}

/// The Rust type a `From` impl may take for a variant's payload: a generated type, a string, an
/// integer, a boolean or a number, through aliases to their target (so that two variants whose
/// payloads are one type behind different names are seen as one). `None` for anything else.
fn convertible(payload: &Payload, model: &Model) -> Option<Ty> {
    let mut ty = match payload {
        Payload::Ty(ty) => ty.unbounded().clone(),
        Payload::WithTag(name) => Ty::Named(name.clone()),
        Payload::Unit | Payload::Raw => return None,
    };
    for _ in 0..model.items.len() {
        let Ty::Named(name) = &ty else { break };
        match model.item(name).map(|item| &item.kind) {
            Some(Kind::Alias(target)) => ty = target.unbounded().clone(),
            _ => break,
        }
    }
    matches!(
        ty,
        Ty::Named(_) | Ty::String | Ty::Int(_) | Ty::Bool | Ty::Number | Ty::JsonNumber
    )
    .then_some(ty)
}

/// `From` impls, one per variant whose payload type no other variant has (`RequestId::from(7)`,
/// `ContentBlock::from(TextContent { .. })`); a string payload also takes `&str`.
fn conversions(item: &Item, u: &Union, model: &Model, paths: &Paths) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let from = paths.name("From");
    let types: Vec<Option<Ty>> = u
        .variants
        .iter()
        .map(|variant| convertible(&variant.payload, model))
        .collect();
    let mut impls = Vec::new();
    for (variant, ty) in u.variants.iter().zip(&types) {
        let Some(ty) = ty else { continue };
        if types.iter().filter(|t| t.as_ref() == Some(ty)).count() != 1
            || ty == &Ty::Named(item.name.clone())
        {
            continue;
        }
        let name = format_ident!("{}", variant.name);
        let payload = payload_type(&variant.payload, paths);
        impls.push(quote! {
            impl #from<#payload> for #ident {
                fn from(value: #payload) -> Self {
                    Self::#name(value)
                }
            }
        });
        if ty == &Ty::String && matches!(variant.payload, Payload::Ty(Ty::String)) {
            impls.push(quote! {
                impl #from<&str> for #ident {
                    fn from(value: &str) -> Self {
                        Self::#name(value.to_owned())
                    }
                }
            });
        }
    }
    quote!(#(#impls)*)
}

fn variant_note(u: &Union, variant: &Variant) -> String {
    let Some(tag) = &u.tag else {
        return String::new();
    };
    match &variant.select {
        Select::Tag {
            value,
            when_absent: false,
        } => format!("`\"{tag}\": \"{value}\"`."),
        Select::Tag {
            value,
            when_absent: true,
        } => format!("`\"{tag}\": \"{value}\"`, or no `{tag}`."),
        Select::Fallback => format!("No `{tag}` (or one no other variant has)."),
        Select::CatchAll { reported: false } => {
            format!("Any other `{tag}`: the object as it arrived (the schema allows other values).")
        }
        Select::CatchAll { reported: true } => {
            format!("Any other `{tag}`: the object as it arrived, reported as `unknown_variant`.")
        }
        Select::Shape => String::new(),
    }
}

fn definition(item: &Item, u: &Union, paths: &Paths, options: &Options) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let variants = u.variants.iter().map(|variant| {
        let name = format_ident!("{}", variant.name);
        let doc = docs::with_note(variant.docs.as_deref(), &variant_note(u, variant));
        match payload_type(&variant.payload, paths) {
            Some(ty) => quote!(#doc #name(#ty),),
            None => quote!(#doc #name,),
        }
    });
    let doc = docs::with_note(item.docs.as_deref(), "");
    let non_exhaustive = options
        .forward_compatible
        .then(|| quote!(#[non_exhaustive]));
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        #non_exhaustive
        pub enum #ident {
            #(#variants)*
        }
    }
}

fn serialize(item: &Item, u: &Union, paths: &Paths) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let type_name = &item.name;
    let (serialize, serializer, result) = (
        paths.name("Serialize"),
        paths.name("Serializer"),
        paths.name("Result"),
    );
    let arms = u.variants.iter().map(|variant| {
        let name = format_ident!("{}", variant.name);
        match (&u.tag, &variant.select, &variant.payload) {
            (Some(tag), Select::Tag { value, .. }, Payload::Unit) => {
                quote!(Self::#name => rt::tag_only(serializer, #tag, #value),)
            }
            (Some(tag), Select::Tag { value, .. }, Payload::Ty(_)) => {
                quote!(Self::#name(payload) => rt::tagged(serializer, #tag, #value, payload),)
            }
            (Some(tag), Select::CatchAll { .. }, Payload::Raw) => {
                quote!(Self::#name(raw) => rt::unknown_variant(serializer, raw, #tag, #type_name),)
            }
            (_, _, Payload::Unit) if u.tag.is_some() => {
                let map = quote!(serializer.serialize_map(Some(0))?.end());
                quote!(Self::#name => #map,)
            }
            (_, _, Payload::Unit) => quote!(Self::#name => serializer.serialize_unit(),),
            _ => quote!(Self::#name(payload) => payload.serialize(serializer),),
        }
    });
    let needs_map_trait = u.tag.is_some()
        && u.variants
            .iter()
            .any(|v| v.payload == Payload::Unit && !matches!(v.select, Select::Tag { .. }));
    if needs_map_trait {
        let _ = paths.name("SerializeMap");
    }
    quote! {
        impl #serialize for #ident {
            fn serialize<S: #serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                match self {
                    #(#arms)*
                }
            }
        }
    }
}

/// The expression decoding a tagged `variant` from `payload` (the object without the tag),
/// selected by the tag value `value`.
fn variant_from(tag: &str, variant: &Variant, paths: &Paths, value: &str) -> TokenStream {
    let name = format_ident!("{}", variant.name);
    match &variant.payload {
        Payload::Ty(ty) => {
            let call = deserialize_call(&rust_type(ty, paths), &quote!(payload), paths);
            quote!(#call.map(Self::#name))
        }
        Payload::WithTag(type_name) => {
            let ty = format_ident!("{}", type_name);
            let call = deserialize_call(
                &quote!(#ty),
                &quote!(rt::WithTag::new(payload, #tag, #value)),
                paths,
            );
            quote!(#call.map(Self::#name))
        }
        Payload::Unit | Payload::Raw => quote!(rt::drain(payload).map(|()| Self::#name)),
    }
}

fn tagged(item: &Item, u: &Union, tag: &str, paths: &Paths) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let type_name = &item.name;
    let values = u.tag_values();
    let fallback = u.fallback();
    let has_fallback = fallback.is_some();
    let (deserialize, deserializer, result) = (
        paths.name("Deserialize"),
        paths.name("Deserializer"),
        paths.name("Result"),
    );
    let mut arms = Vec::new();
    for variant in &u.variants {
        if let Select::Tag { value, .. } = &variant.select {
            let decode = variant_from(tag, variant, paths, value);
            arms.push(quote!(Some(#value) => #decode,));
        }
    }
    let unknown = match (u.catch_all(), fallback) {
        // A branch taken when the tag is absent but fixed to its value when present (MCP's
        // form elicitation: `"mode": "form"` or no `mode`) takes no other value: an unknown one
        // is an unknown tag, named with the values the union knows.
        (
            None,
            Some(Variant {
                select: Select::Tag {
                    when_absent: true, ..
                },
                ..
            }),
        ) => quote!(Some(other) => Err(rt::unknown_tag::<Self, D::Error>(other)),),
        (Some(variant), _) => {
            let name = format_ident!("{}", variant.name);
            let reported = matches!(variant.select, Select::CatchAll { reported: true });
            quote!(Some(other) => rt::catch_all::<Self, D>(payload, other, #reported).map(Self::#name),)
        }
        (None, Some(variant)) => {
            let name = format_ident!("{}", variant.name);
            let ty = match &variant.payload {
                Payload::Ty(ty) => Some(rust_type(ty, paths)),
                Payload::WithTag(n) => {
                    let i = format_ident!("{}", n);
                    Some(quote!(#i))
                }
                _ => None,
            };
            match ty {
                Some(ty) => {
                    let call = deserialize_call(
                        &ty,
                        &quote!(rt::WithTag::other(payload, Self::TAG, other)),
                        paths,
                    );
                    quote!(Some(other) => #call.map(Self::#name),)
                }
                None => quote!(Some(other) => Err(rt::unknown_tag::<Self, D::Error>(other)),),
            }
        }
        (None, None) => quote!(Some(other) => Err(rt::unknown_tag::<Self, D::Error>(other)),),
    };
    let missing = match fallback {
        Some(variant) => {
            let name = format_ident!("{}", variant.name);
            match &variant.payload {
                Payload::Unit => quote!(None => rt::drain(payload).map(|()| Self::#name),),
                Payload::Ty(ty) => {
                    let call = deserialize_call(&rust_type(ty, paths), &quote!(payload), paths);
                    quote!(None => #call.map(Self::#name),)
                }
                Payload::WithTag(n) => {
                    let i = format_ident!("{}", n);
                    let call = deserialize_call(&quote!(#i), &quote!(payload), paths);
                    quote!(None => #call.map(Self::#name),)
                }
                Payload::Raw => quote!(None => Err(rt::missing_tag::<Self, D::Error>()),),
            }
        }
        None => quote!(None => Err(rt::missing_tag::<Self, D::Error>()),),
    };
    quote! {
        impl<'de> #deserialize<'de> for #ident {
            fn deserialize<D: #deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                rt::tagged_union(deserializer)
            }
        }
        impl rt::Tagged for #ident {
            const TAG: &'static str = #tag;
            const NAME: &'static str = #type_name;
            const VALUES: &'static [&'static str] = &[#(#values),*];
            const FALLBACK: bool = #has_fallback;

            fn variant<'de, D: #deserializer<'de>>(tag: Option<&str>, payload: D) -> #result<Self, D::Error> {
                match tag {
                    #(#arms)*
                    #unknown
                    #missing
                }
            }
        }
    }
}

fn untagged(
    item: &Item,
    u: &Union,
    model: &Model,
    paths: &Paths,
    statics: &mut Statics,
) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let type_name = &item.name;
    let (deserialize, deserializer, result, value) = (
        paths.name("Deserialize"),
        paths.name("Deserializer"),
        paths.name("Result"),
        paths.name("Value"),
    );
    let branches = u.variants.iter().map(|variant| {
        let name = format_ident!("{}", variant.name);
        match &variant.payload {
            Payload::Unit => quote!(|raw| rt::null_branch(raw, || Self::#name),),
            Payload::Ty(ty) => {
                let is_struct = matches!(ty.unbounded(), Ty::Named(n) if matches!(model.item(n).map(|i| &i.kind), Some(Kind::Struct(_))));
                if is_struct {
                    quote!(|raw| rt::object_branch(raw, Self::#name),)
                } else {
                    let seed = seed(ty, paths, statics, &static_name(type_name, &variant.name));
                    quote!(|raw| rt::branch(raw, #seed, Self::#name),)
                }
            }
            Payload::WithTag(_) | Payload::Raw => quote!(),
        }
    });
    let call = deserialize_call(&value, &quote!(deserializer), paths);
    let decide = if u.exactly_one {
        quote!(rt::untagged_one)
    } else {
        quote!(rt::untagged)
    };
    quote! {
        impl<'de> #deserialize<'de> for #ident {
            fn deserialize<D: #deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                let raw = #call?;
                #decide(&raw, #type_name, &[
                    #(#branches)*
                ])
                .map_err(rt::lift)
            }
        }
    }
}
