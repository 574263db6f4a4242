//! Unions: an enum with one variant per branch; `Serialize` writes the tag (or lets the payload
//! write it), `Deserialize` reads the tag first when it can (see the runtime's `tagged`) or
//! picks the branch by the value's shape (the runtime's `untagged`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::docs;
use super::paths::Paths;
use super::types::{rust_type, seed, static_name, Statics};
use super::{deserialize_call, Options};
use crate::model::{names, Item, Kind, Model, Pairing, Payload, Select, Ty, Union, Variant};

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
    let paired = model.pairings.iter().map(|pairing| {
        let decode_for = (pairing.results == item.name).then(|| decode_for(item, pairing, paths));
        let tag_of = (pairing.requests == item.name)
            .then(|| tag_of(item, u, pairing))
            .flatten();
        quote!(#decode_for #tag_of)
    });
    let contract = paths.contract();
    let statics = &statics.items;
    quote! {
        #definition
        #conversions
        #(#paired)*
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
    // A union of strings, integers and booleans (an id, a token) can key a map.
    let keys = u.variants.iter().all(|variant| match &variant.payload {
        Payload::Unit => true,
        Payload::Ty(ty) => matches!(ty.unbounded(), Ty::String | Ty::Int(_) | Ty::Bool),
        Payload::WithTag(_) | Payload::Raw => false,
    });
    let derive = if keys {
        quote!(#[derive(Clone, Debug, PartialEq, Eq, Hash)])
    } else {
        quote!(#[derive(Clone, Debug, PartialEq)])
    };
    quote! {
        #doc
        #derive
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
    let (deserialize, deserializer, result) = (
        paths.name("Deserialize"),
        paths.name("Deserializer"),
        paths.name("Result"),
    );
    let branches = u.variants.iter().map(|variant| {
        let name = format_ident!("{}", variant.name);
        match &variant.payload {
            Payload::Unit => quote!(|raw| rt::null_branch(raw, || Self::#name),),
            Payload::Ty(ty) => {
                let is_struct = |ty: &Ty| matches!(ty.unbounded(), Ty::Named(n) if matches!(model.item(n).map(|i| &i.kind), Some(Kind::Struct(_))));
                if is_struct(ty) {
                    quote!(|raw| rt::object_branch(raw, Self::#name),)
                } else if matches!(ty, Ty::Boxed(inner) if is_struct(inner)) {
                    // A struct holding the union (boxed): its required members are looked for
                    // first too, so that a union holding itself does not decode every level
                    // again for each branch that could not take it.
                    quote!(|raw| rt::object_branch(raw, |value| Self::#name(Box::new(value))),)
                } else {
                    let seed = seed(ty, paths, statics, &static_name(type_name, &variant.name));
                    quote!(|raw| rt::branch(raw, #seed, Self::#name),)
                }
            }
            Payload::WithTag(_) | Payload::Raw => quote!(),
        }
    });
    // A module for a user's schema buffers the raw text, so that a number reaches its branch
    // with every digit.
    // The in-crate families buffer a `Value` read with `rt::value`, which compares member names
    // in the traffic checker's one-pass check (a `Value` keeps the last of two).
    let (buffer, raw) = if paths.json_values() {
        (quote!(rt::raw(deserializer)?), quote!(&*raw))
    } else {
        (quote!(rt::value(deserializer)?), quote!(&raw))
    };
    let decide = if u.exactly_one {
        quote!(rt::untagged_one)
    } else {
        quote!(rt::untagged)
    };
    quote! {
        impl<'de> #deserialize<'de> for #ident {
            fn deserialize<D: #deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                let raw = #buffer;
                #decide(#raw, #type_name, &[
                    #(#branches)*
                ])
                .map_err(rt::lift)
            }
        }
    }
}

/// `decode_for(tag_value, json)` on the result union of `pairing`: one arm per branch that
/// answers some tag values, the whole union for any other value.
fn decode_for(item: &Item, pairing: &Pairing, paths: &Paths) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let result = paths.name("Result");
    let (requests, tag) = (&pairing.requests, &pairing.tag);
    // Tag values by the branch answering them, branches in order of their first tag value.
    let mut arms: Vec<(&str, Vec<&str>)> = Vec::new();
    for pair in &pairing.pairs {
        let Some(branch) = pair.result.as_deref() else {
            continue;
        };
        match arms.iter_mut().find(|(b, _)| *b == branch) {
            Some((_, values)) => values.push(&pair.value),
            None => arms.push((branch, vec![&pair.value])),
        }
    }
    let arms = arms.iter().map(|(branch, values)| {
        let variant = format_ident!("{}", branch);
        quote!(#(#values)|* => rt::decode_paired(json, limits, Self::#variant),)
    });
    let name = &item.name;
    let unpaired: Vec<&str> = pairing
        .pairs
        .iter()
        .filter(|p| p.result.is_none())
        .map(|p| p.value.as_str())
        .collect();
    let unpaired = if unpaired.is_empty() {
        String::new()
    } else {
        format!(
            " The {tag} values of `{requests}` with no branch of their own here ({}) take the \
             ordinary decode at once.",
            unpaired
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let param = names::field_name(tag);
    // A request answered by the empty result, if there is one: any object is its result.
    let empty = pairing.pairs.iter().find(|p| p.empty && p.result.is_some());
    let example = empty.map_or_else(String::new, |pair| {
        format!(
            " (a `{}` answered with `{{\"tools\": []}}` is `{}` with an unknown member)",
            pair.value,
            pair.result.as_deref().unwrap_or_default()
        )
    });
    let text = format!(
        "Decodes `json` as the result of the request of `{requests}` whose `{tag}` is `{param}`: \
         straight into the branch that answers it (`XResult` for `XRequest`, `EmptyResult` for \
         a request with no result type of its own), in one pass, without trying the other \
         branches.{unpaired}\n\n\
         When `{tag}` is none of `{requests}`, or the branch refuses the value (a value of \
         another branch), it decodes `json` as \
         `toolcall_contracts::decode::<{name}>` does: every branch in schema order. So it \
         accepts exactly the values `decode` accepts, with the same leniency report; the \
         variant differs where several branches take a value and the request names another \
         one than the union's rule{example}.\n\n\
         # Errors\n\
         Input over `decode`'s limits: the limit. Refused by the branch and by the union: the \
         branch's error, naming the pointer of the member that failed (the union's error for a \
         `{tag}` with no branch)."
    );
    let doc = docs::doc(&wrap(&text));
    let with_doc = docs::doc(&wrap(&format!(
        "[`{name}::decode_for`] within `limits` (as `toolcall_contracts::decode_with`): both \
         the branch and the union decode are held to them.\n\n\
         # Errors\n\
         As `decode_for`, input over `limits` giving the limit."
    )));
    let param = format_ident!("{}", names::field_name(tag));
    quote! {
        impl #ident {
            #doc
            pub fn decode_for(#param: &str, json: &[u8]) -> #result<rt::Decoded<Self>, rt::DecodeError> {
                Self::decode_for_with(#param, json, &rt::DECODE_LIMITS)
            }

            #with_doc
            pub fn decode_for_with(
                #param: &str,
                json: &[u8],
                limits: &rt::DecodeLimits,
            ) -> #result<rt::Decoded<Self>, rt::DecodeError> {
                match #param {
                    #(#arms)*
                    _ => rt::decode_union(json, limits),
                }
            }
        }
    }
}

/// `<tag>(&self)` (`method()`) on the request union of `pairing`: the tag value of the request.
/// `None` when a branch has no tag value of its own (a catch-all, a branch taken when the tag
/// is absent), or the tag is no identifier.
fn tag_of(item: &Item, u: &Union, pairing: &Pairing) -> Option<TokenStream> {
    let ident = format_ident!("{}", item.name);
    let tag = &pairing.tag;
    let method = names::field_name(tag);
    if method != *tag || !names::is_identifier(&method) {
        return None;
    }
    let method = format_ident!("{}", method);
    let arms = u
        .variants
        .iter()
        .map(|variant| {
            let name = format_ident!("{}", variant.name);
            match (&variant.select, &variant.payload) {
                (Select::Tag { value, .. }, Payload::Unit) => Some(quote!(Self::#name => #value,)),
                (Select::Tag { value, .. }, _) => Some(quote!(Self::#name(_) => #value,)),
                _ => None,
            }
        })
        .collect::<Option<Vec<_>>>()?;
    let doc = docs::doc(&wrap(&format!(
        "The `{tag}` of the request: what `{}::decode_for` takes to decode the result that \
         answers it.",
        pairing.results
    )));
    Some(quote! {
        impl #ident {
            #doc
            #[must_use]
            pub fn #method(&self) -> &'static str {
                match self {
                    #(#arms)*
                }
            }
        }
    })
}

/// `text` with its paragraphs wrapped at 88 columns (92 with the indent of `/// `).
fn wrap(text: &str) -> String {
    let mut out = String::new();
    for (i, paragraph) in text.split("\n\n").enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        for (j, block) in paragraph.split('\n').enumerate() {
            if j > 0 {
                out.push('\n');
            }
            let mut width = 0;
            for word in block.split(' ') {
                if width > 0 && width + 1 + word.len() > 88 {
                    out.push('\n');
                    width = 0;
                } else if width > 0 {
                    out.push(' ');
                    width += 1;
                }
                out.push_str(word);
                width += word.len();
            }
        }
    }
    out
}
