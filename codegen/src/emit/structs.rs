//! Structs: the type, its constructor and setters (forward-compatible families), `Serialize`,
//! `Deserialize` (members streamed, or the object buffered when a union is flattened into it),
//! and the list of its members.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::docs;
use super::paths::Paths;
use super::types::{item_seed, rust_type, seed, static_name, Statics};
use super::Options;
use crate::model::{Field, Item, MemberValue, Presence, Rest, Struct, Ty};

/// Locals of the generated visitor that a member's slot must not shadow.
const LOCALS: &[&str] = &[
    "access",
    "key",
    "deserializer",
    "object",
    "value",
    "serializer",
    "out",
];

/// A field identifier (`r#` is never needed: keywords got a `_`).
fn field_ident(name: &str) -> Ident {
    format_ident!("{}", name)
}

/// `field: value` in the struct literal that ends decoding; `value` is `None` for the local
/// variable as it is (written `field` alone when it has the field's name).
fn field_init(field: &Ident, slot: &Ident, value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(value) => quote!(#field: #value),
        None if field == slot => quote!(#field),
        None => quote!(#field: #slot),
    }
}

/// The local variable holding a member while decoding.
fn slot_ident(field: &str) -> Ident {
    if LOCALS.contains(&field) {
        format_ident!("{}_slot", field)
    } else {
        format_ident!("{}", field)
    }
}

/// The field holding the members the schema does not declare, if any.
fn rest_field(s: &Struct) -> Option<(&'static str, &Rest)> {
    let taken = |name: &str| s.members.iter().any(|m| m.field == name);
    match &s.rest {
        Rest::Keep if !taken("unknown_members") => Some(("unknown_members", &s.rest)),
        Rest::Keep => Some(("unknown_members_", &s.rest)),
        Rest::Additional(_) if !taken("additional_properties") => {
            Some(("additional_properties", &s.rest))
        }
        Rest::Additional(_) => Some(("additional_properties_", &s.rest)),
        Rest::Ignore | Rest::Deny => None,
    }
}

/// `rt::Const::Str("text")`, `rt::Const::Int(-32042)`, `rt::Const::Bool(true)`.
fn const_tokens(value: &serde_json::Value) -> TokenStream {
    match value {
        serde_json::Value::String(s) => quote!(rt::Const::Str(#s)),
        serde_json::Value::Bool(b) => quote!(rt::Const::Bool(#b)),
        other => match (other.as_i64(), other.as_u64()) {
            (Some(i), _) => quote!(rt::Const::Int(#i)),
            (None, Some(u)) => quote!(rt::Const::UInt(#u)),
            _ => quote!(rt::Const::Str("")),
        },
    }
}

/// The Rust type of a member's field.
fn field_type(field: &Field, paths: &Paths) -> TokenStream {
    let ty = rust_type(&field.ty, paths);
    match field.presence {
        Presence::Required => ty,
        Presence::RequiredNullable | Presence::Optional => {
            let option = paths.name("Option");
            quote!(#option<#ty>)
        }
        Presence::OptionalNullable => {
            let maybe = paths.maybe();
            quote!(#maybe<#ty>)
        }
    }
}

/// How one member is decoded: the seed, and the expression that turns its slot into the field.
fn member_decode(
    field: &Field,
    wire: &str,
    slot: &Ident,
    paths: &Paths,
    statics: &mut Statics,
    name: &str,
) -> (TokenStream, Option<TokenStream>) {
    let base = if field.leniency.skip_invalid_items {
        let items = item_seed(field.ty.unbounded(), paths, statics, name)
            .unwrap_or_else(|| seed(&field.ty, paths, statics, name));
        quote!(rt::skip_invalid(#items))
    } else {
        seed(&field.ty, paths, statics, name)
    };
    let hint = field.string_enum;
    let on_error = field.leniency.default_on_error;
    let on_null = field.leniency.default_on_null || field.leniency.null_as_absent;
    match field.presence {
        Presence::Required => {
            let required = quote!(rt::required(#slot, #wire)?);
            match (on_error, field.leniency.default_on_null) {
                (false, false) => (base, Some(required)),
                (true, false) => (
                    quote!(rt::default_on_error(#base, #hint)),
                    Some(quote!(#required.unwrap_or_default())),
                ),
                (false, true) => (
                    quote!(rt::default_on_null(#base)),
                    Some(quote!(#required.unwrap_or_default())),
                ),
                (true, true) => (
                    quote!(rt::default_on_error(rt::default_on_null(#base), #hint)),
                    Some(quote!(#required.flatten().unwrap_or_default())),
                ),
            }
        }
        Presence::RequiredNullable => {
            let required = quote!(rt::required(#slot, #wire)?);
            if on_error {
                (
                    quote!(rt::default_on_error(rt::opt(#base), #hint)),
                    Some(quote!(#required.flatten())),
                )
            } else {
                (quote!(rt::opt(#base)), Some(required))
            }
        }
        Presence::Optional => match (on_error, on_null) {
            (false, false) => (base, None),
            (true, false) => (
                quote!(rt::default_on_error(#base, #hint)),
                Some(quote!(#slot.flatten())),
            ),
            (false, true) => (
                quote!(rt::default_on_null(#base)),
                Some(quote!(#slot.flatten())),
            ),
            (true, true) => (
                quote!(rt::default_on_error(rt::default_on_null(#base), #hint)),
                Some(quote!(#slot.flatten().flatten())),
            ),
        },
        Presence::OptionalNullable => {
            if on_error {
                (
                    quote!(rt::default_on_error(rt::nullable(#base), #hint)),
                    Some(quote!(#slot.flatten().unwrap_or_default())),
                )
            } else {
                (
                    quote!(rt::nullable(#base)),
                    Some(quote!(#slot.unwrap_or_default())),
                )
            }
        }
    }
}

/// The struct `item` and its impls.
pub fn emit(item: &Item, s: &Struct, paths: &Paths, options: &Options) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let mut statics = Statics::default();
    let definition = definition(item, s, paths, options);
    let constructors = if options.forward_compatible {
        constructors(item, s, paths)
    } else {
        quote!()
    };
    let serialize = serialize(&ident, s, paths);
    let deserialize = if s.flatten.is_some() {
        deserialize_buffered(item, s, paths, &mut statics)
    } else {
        deserialize_streamed(item, s, paths, &mut statics)
    };
    let members: Vec<&str> = s.members.iter().map(|m| m.wire.as_str()).collect();
    let required: Vec<&str> = s
        .members
        .iter()
        .filter(|m| match &m.value {
            MemberValue::Field(field) => {
                matches!(
                    field.presence,
                    Presence::Required | Presence::RequiredNullable
                )
            }
            MemberValue::Const { required, .. } => *required,
        })
        .map(|m| m.wire.as_str())
        .collect();
    let required = if required.is_empty() {
        quote!()
    } else {
        quote!(const REQUIRED: &'static [&'static str] = &[#(#required),*];)
    };
    let contract = paths.contract();
    let statics = &statics.items;
    quote! {
        #definition
        #constructors
        #serialize
        #deserialize
        impl rt::Members for #ident {
            const MEMBERS: &'static [&'static str] = &[#(#members),*];
            #required
        }
        impl rt::Sealed for #ident {}
        impl #contract for #ident {}
        #(#statics)*
    }
}

fn definition(item: &Item, s: &Struct, paths: &Paths, options: &Options) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let mut fields = Vec::new();
    for member in &s.members {
        let name = field_ident(&member.field);
        let wire = &member.wire;
        match &member.value {
            MemberValue::Const {
                value,
                required: false,
            } => {
                let doc = docs::with_note(
                    member.docs.as_deref(),
                    &format!("`{wire}`: optional, always `{value}`: `true` writes it."),
                );
                fields.push(quote!(#doc pub #name: bool,));
            }
            MemberValue::Const { .. } => {}
            MemberValue::Field(field) => {
                let doc = docs::with_note(member.docs.as_deref(), &docs::member_note(wire, field));
                let ty = field_type(field, paths);
                fields.push(quote!(#doc pub #name: #ty,));
            }
        }
    }
    if let Some(flatten) = &s.flatten {
        let name = field_ident(&flatten.field);
        let ty = format_ident!("{}", flatten.ty);
        let doc =
            docs::doc("The members that depend on the variant, beside the others on the wire.");
        fields.push(quote!(#doc pub #name: #ty,));
    }
    if let Some((name, rest)) = rest_field(s) {
        let name = field_ident(name);
        let (doc, ty) = match rest {
            Rest::Additional(ty) => (
                "Members the schema does not name, each a value of the type its `additionalProperties` gives; written back when encoding.",
                {
                    let inner = rust_type(ty, paths);
                    let (map, string) = (paths.name("BTreeMap"), paths.name("String"));
                    quote!(#map<#string, #inner>)
                },
            ),
            _ => (
                "Members the schema does not declare, kept and written back when encoding (not reported: the schema allows them).",
                paths.any_object(),
            ),
        };
        let doc = docs::doc(doc);
        fields.push(quote!(#doc pub #name: #ty,));
    }
    let required_consts: Vec<String> = s
        .members
        .iter()
        .filter_map(|m| match &m.value {
            MemberValue::Const {
                value,
                required: true,
            } => Some(format!("`\"{}\": {value}`", m.wire)),
            _ => None,
        })
        .collect();
    let note = if required_consts.is_empty() {
        String::new()
    } else {
        format!("On the wire also {}.", required_consts.join(", "))
    };
    let doc = docs::with_note(item.docs.as_deref(), &note);
    let non_exhaustive = options
        .forward_compatible
        .then(|| quote!(#[non_exhaustive]));
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        #non_exhaustive
        pub struct #ident {
            #(#fields)*
        }
    }
}

/// `new` with the required members, and a setter per optional member.
fn constructors(item: &Item, s: &Struct, paths: &Paths) -> TokenStream {
    let into = paths.name("Into");
    let mut params = Vec::new();
    let mut inits = Vec::new();
    let mut setters = Vec::new();
    for member in &s.members {
        let name = field_ident(&member.field);
        let wire = &member.wire;
        match &member.value {
            MemberValue::Const { required: true, .. } => {}
            MemberValue::Const { .. } => {
                inits.push(quote!(#name: false));
                let doc = format!(" Sets whether `{wire}` is written.");
                let setter = setter_name(&member.field);
                setters.push(quote! {
                    #[doc = #doc]
                    #[must_use]
                    pub fn #setter(mut self, value: bool) -> Self {
                        self.#name = value;
                        self
                    }
                });
            }
            MemberValue::Field(field) => {
                let ty = field_type(field, paths);
                match field.presence {
                    Presence::Required | Presence::RequiredNullable => {
                        params.push(quote!(#name: impl #into<#ty>));
                        inits.push(quote!(#name: #name.into()));
                    }
                    Presence::Optional | Presence::OptionalNullable => {
                        let default = paths.name("Default");
                        inits.push(quote!(#name: #default::default()));
                        let value_ty = rust_type(&field.ty, paths);
                        let store = match (field.presence, field.ty.unbounded()) {
                            (Presence::OptionalNullable, Ty::Value) if paths.json_values() => {
                                let maybe = paths.maybe();
                                quote!(#maybe::from_json_value(value.into()))
                            }
                            (Presence::OptionalNullable, Ty::Value) => {
                                let maybe = paths.maybe();
                                quote!(#maybe::from_json(value.into()))
                            }
                            (Presence::OptionalNullable, _) => {
                                let maybe = paths.maybe();
                                quote!(#maybe::Value(value.into()))
                            }
                            _ => quote!(Some(value.into())),
                        };
                        let doc = format!(" Sets `{wire}`.");
                        let setter = setter_name(&member.field);
                        setters.push(quote! {
                            #[doc = #doc]
                            #[must_use]
                            pub fn #setter(mut self, value: impl #into<#value_ty>) -> Self {
                                self.#name = #store;
                                self
                            }
                        });
                    }
                }
            }
        }
    }
    if let Some(flatten) = &s.flatten {
        let name = field_ident(&flatten.field);
        let ty = format_ident!("{}", flatten.ty);
        params.push(quote!(#name: impl #into<#ty>));
        inits.push(quote!(#name: #name.into()));
    }
    if let Some((name, _)) = rest_field(s) {
        let name = field_ident(name);
        let default = paths.name("Default");
        inits.push(quote!(#name: #default::default()));
    }
    let doc = format!(
        " A `{}` with its required members; the others are absent.",
        item.name
    );
    let ident = format_ident!("{}", item.name);
    quote! {
        impl #ident {
            #[doc = #doc]
            #[must_use]
            pub fn new(#(#params),*) -> Self {
                Self {
                    #(#inits,)*
                }
            }
            #(#setters)*
        }
    }
}

fn setter_name(field: &str) -> Ident {
    if field == "new" {
        format_ident!("with_new")
    } else {
        format_ident!("{}", field)
    }
}

fn serialize(ident: &Ident, s: &Struct, paths: &Paths) -> TokenStream {
    let (serialize, serializer, result) = (
        paths.name("Serialize"),
        paths.name("Serializer"),
        paths.name("Result"),
    );
    // `serialize_entry` and `end` are methods of this trait.
    let _ = paths.name("SerializeMap");
    let mut writes = Vec::new();
    for member in &s.members {
        let name = field_ident(&member.field);
        let wire = &member.wire;
        match &member.value {
            MemberValue::Const {
                value,
                required: true,
            } => {
                let value = const_tokens(value);
                writes.push(quote!(out.serialize_entry(#wire, &#value)?;));
            }
            MemberValue::Const { value, .. } => {
                let value = const_tokens(value);
                writes.push(quote! {
                    if self.#name {
                        out.serialize_entry(#wire, &#value)?;
                    }
                });
            }
            MemberValue::Field(field) => match field.presence {
                Presence::Required | Presence::RequiredNullable => {
                    writes.push(quote!(out.serialize_entry(#wire, &self.#name)?;));
                }
                Presence::Optional | Presence::OptionalNullable => {
                    writes.push(quote!(rt::entry(&mut out, #wire, &self.#name)?;));
                }
            },
        }
    }
    if let Some(flatten) = &s.flatten {
        let name = field_ident(&flatten.field);
        writes.push(quote!(rt::flatten_into(&mut out, &self.#name)?;));
    }
    if let Some((name, _)) = rest_field(s) {
        let name = field_ident(name);
        writes.push(quote!(rt::flatten_into(&mut out, &self.#name)?;));
    }
    quote! {
        impl #serialize for #ident {
            fn serialize<S: #serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                let mut out = serializer.serialize_map(None)?;
                #(#writes)*
                out.end()
            }
        }
    }
}

/// The checks after every member was read: required `const` members, the presence rule.
fn checks(s: &Struct, name: &str) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for member in &s.members {
        if let MemberValue::Const { required: true, .. } = &member.value {
            let slot = slot_ident(&member.field);
            let wire = &member.wire;
            out.push(quote!(rt::required_constant(#slot, #wire)?;));
        }
    }
    if let Some(rule) = &s.presence_rule {
        let exactly_one = rule.exactly_one;
        let sets = rule.sets.iter().map(|set| quote!(&[#(#set),*]));
        let present = rule.sets.iter().map(|set| {
            let checks = set.iter().map(|wire| {
                let member = s.members.iter().find(|m| &m.wire == wire);
                match member.map(|m| (&m.value, slot_ident(&m.field))) {
                    Some((MemberValue::Const { .. }, slot)) => quote!(#slot),
                    Some((_, slot)) => quote!(#slot.is_some()),
                    None => quote!(false),
                }
            });
            let checks: Vec<TokenStream> = checks.collect();
            if checks.is_empty() {
                quote!(true)
            } else {
                quote!(#(#checks)&&*)
            }
        });
        out.push(quote! {
            rt::presence(#name, #exactly_one, &[#(#sets),*], &[#(#present),*])?;
        });
    }
    out
}

fn deserialize_streamed(
    item: &Item,
    s: &Struct,
    paths: &Paths,
    statics: &mut Statics,
) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let name = &item.name;
    let expecting = format!("an object (`{name}`)");
    let mut slots = Vec::new();
    let mut arms = Vec::new();
    let mut inits = Vec::new();
    for member in &s.members {
        let field = field_ident(&member.field);
        let slot = slot_ident(&member.field);
        let wire = &member.wire;
        match &member.value {
            MemberValue::Const { value, required } => {
                let value = const_tokens(value);
                slots.push(quote!(let mut #slot = false;));
                arms.push(quote!(#wire => rt::constant(&mut access, &mut #slot, #wire, #value)?,));
                if !required {
                    inits.push(field_init(&field, &slot, None));
                }
            }
            MemberValue::Field(f) => {
                let static_base = static_name(name, &member.field);
                let (seed, finish) = member_decode(f, wire, &slot, paths, statics, &static_base);
                slots.push(quote!(let mut #slot = None;));
                arms.push(quote!(#wire => rt::member(&mut access, &mut #slot, #wire, #seed)?,));
                inits.push(field_init(&field, &slot, finish));
            }
        }
    }
    let rest_arm = match (&s.rest, rest_field(s)) {
        (Rest::Keep, Some((field, _))) if paths.json_values() => {
            let field = field_ident(field);
            let btree = paths.name("BTreeMap");
            let value = paths.any_value();
            slots.push(quote!(let mut #field = #btree::new();));
            inits.push(quote!(#field));
            quote!(rt::keep_typed(&mut access, &mut #field, key, rt::plain::<#value>())?)
        }
        (Rest::Keep, Some((field, _))) => {
            let field = field_ident(field);
            let map = paths.name("Map");
            slots.push(quote!(let mut #field = #map::new();));
            inits.push(quote!(#field));
            quote!(rt::keep_unknown(&mut access, &mut #field, key)?)
        }
        (Rest::Additional(ty), Some((field, _))) => {
            let field = field_ident(field);
            let btree = paths.name("BTreeMap");
            let seed = seed(ty, paths, statics, &static_name(name, "ADDITIONAL"));
            slots.push(quote!(let mut #field = #btree::new();));
            inits.push(quote!(#field));
            quote!(rt::keep_typed(&mut access, &mut #field, key, #seed)?)
        }
        (Rest::Deny, _) => {
            let members = s.members.iter().map(|m| &m.wire);
            quote!(return Err(rt::deny_unknown(&key, &[#(#members),*])))
        }
        _ => quote!(rt::skip_unknown(&mut access)?),
    };
    let uses_key = s.rest != Rest::Ignore;
    let checks = checks(s, name);
    let (deserialize, deserializer, result, fmt) = (
        paths.name("Deserialize"),
        paths.name("Deserializer"),
        paths.name("Result"),
        paths.name("fmt"),
    );
    let de = paths.name("de");
    // Without declared members every key goes to the rest: no `match` of one arm.
    let read_keys = if arms.is_empty() && uses_key {
        quote!(while let Some(key) = access.next_key::<rt::Key<'de>>()? { #rest_arm; })
    } else if arms.is_empty() {
        quote!(while access.next_key::<rt::Key<'de>>()?.is_some() { #rest_arm; })
    } else {
        quote! {
            while let Some(key) = access.next_key::<rt::Key<'de>>()? {
                match key.as_str() { #(#arms)* _ => #rest_arm, }
            }
        }
    };
    quote! {
        impl<'de> #deserialize<'de> for #ident {
            fn deserialize<D: #deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                struct Visitor;
                impl<'de> #de::Visitor<'de> for Visitor {
                    type Value = #ident;
                    fn expecting(&self, f: &mut #fmt::Formatter<'_>) -> #fmt::Result {
                        f.write_str(#expecting)
                    }
                    fn visit_map<A: #de::MapAccess<'de>>(self, mut access: A) -> #result<#ident, A::Error> {
                        #(#slots)*
                        #read_keys
                        #(#checks)*
                        Ok(#ident {
                            #(#inits,)*
                        })
                    }
                }
                deserializer.deserialize_map(Visitor)
            }
        }
    }
}

/// A struct with a union flattened into it: the object is buffered, the declared members taken
/// out of it, and the rest decoded as the union.
fn deserialize_buffered(
    item: &Item,
    s: &Struct,
    paths: &Paths,
    statics: &mut Statics,
) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let name = &item.name;
    let expecting = format!("an object (`{name}`)");
    let mut takes = Vec::new();
    let mut inits = Vec::new();
    for member in &s.members {
        let field = field_ident(&member.field);
        let slot = slot_ident(&member.field);
        let wire = &member.wire;
        match &member.value {
            MemberValue::Const { value, required } => {
                let value = const_tokens(value);
                takes.push(quote! {
                    let #slot = rt::take_constant(&mut object, #wire, #value).map_err(rt::lift)?;
                });
                if !required {
                    inits.push(field_init(&field, &slot, None));
                }
            }
            MemberValue::Field(f) => {
                let static_base = static_name(name, &member.field);
                let (seed, finish) = member_decode(f, wire, &slot, paths, statics, &static_base);
                takes.push(quote! {
                    let #slot = rt::take(&mut object, #wire, #seed).map_err(rt::lift)?;
                });
                inits.push(field_init(&field, &slot, finish));
            }
        }
    }
    let flatten = s.flatten.as_ref().map(|flatten| {
        let field = field_ident(&flatten.field);
        let ty = format_ident!("{}", flatten.ty);
        let value = paths.name("Value");
        let call = super::deserialize_call(&quote!(#ty), &quote!(#value::Object(object)), paths);
        quote! {
            let #field = #call.map_err(rt::lift)?;
        }
    });
    if let Some(flatten) = &s.flatten {
        let field = field_ident(&flatten.field);
        inits.push(quote!(#field));
    }
    let checks = checks(s, name);
    let (deserialize, deserializer, result) = (
        paths.name("Deserialize"),
        paths.name("Deserializer"),
        paths.name("Result"),
    );
    quote! {
        impl<'de> #deserialize<'de> for #ident {
            fn deserialize<D: #deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                let mut object = rt::object(deserializer, #expecting)?;
                #(#takes)*
                #flatten
                #(#checks)*
                Ok(Self {
                    #(#inits,)*
                })
            }
        }
    }
}
