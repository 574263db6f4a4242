//! Stage 5: a `syn` pass over typify's output, and the emitter for what typify cannot express.
//!
//! - Structs ([`crate::normalize::StructFacts`]): members reordered to schema order; every
//!   optional member becomes `Option<T>`, or `MaybeUndefined<T>` when its schema admits `null`
//!   (three states on the wire); a `Deserialize` impl is emitted that tracks the member path,
//!   applies the schema's declared leniency (`x-deserialize-*`) and reports it; `Serialize`
//!   stays derived. With [`Options::forward_compatible`]: `#[non_exhaustive]`, `new(required...)`
//!   and `#[must_use]` setters.
//! - Unions ([`crate::normalize::Union`]): enums with variant names from the tag values and
//!   newtype variants over the referenced structs; the tag is checked against the known values
//!   and a catch-all variant keeps unknown ones as raw JSON.
//! - Enums ([`crate::normalize::EnumDef`]): plain enums; unknown values go to `Other(raw)` when
//!   the schema is open, to a declared `other` value (reported), or fail naming the allowed values.
//! - Housekeeping: typify's embedded schema copies in doc comments are removed, and its `error`
//!   module when nothing uses it.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::normalize::{
    EnumDef, Normalized, Payload, PropertyFacts, StructFacts, Union, VariantKind,
};

/// Per-family switches.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// `#[non_exhaustive]` on structs and enums, `new(required...)` and setters on structs.
    pub forward_compatible: bool,
    /// Structs keep members the schema does not define in `unknown_members` and write them
    /// back, so that re-encoding a valid message loses nothing.
    pub keep_unknown_members: bool,
}

/// Why the post-pass failed.
#[derive(Debug, thiserror::Error)]
pub enum PostpassError {
    /// typify's output (or ours) is not a Rust file syn can parse.
    #[error("generated code for `{item}` does not parse as Rust: {message}")]
    Parse {
        /// The item.
        item: String,
        /// syn's message.
        message: String,
    },
    /// A member whose declared leniency has no Rust default to fall back on.
    #[error("definition `{definition}`: required member `{member}` declares `{keyword}` but its type `{ty}` has no empty value")]
    NoDefault {
        /// The definition.
        definition: String,
        /// The member.
        member: String,
        /// The leniency keyword.
        keyword: String,
        /// The Rust type.
        ty: String,
    },
    /// typify produced something the post-pass does not rewrite.
    #[error("`{item}`: {what} is not supported by the post-pass")]
    Unsupported {
        /// The item.
        item: String,
        /// What was found.
        what: String,
    },
    /// A member of the schema that typify did not generate.
    #[error("definition `{definition}`: member `{member}` is missing from typify's struct")]
    MissingMember {
        /// The definition.
        definition: String,
        /// The member.
        member: String,
    },
}

fn parse_items(item: &str, tokens: TokenStream) -> Result<Vec<syn::Item>, PostpassError> {
    syn::parse2::<syn::File>(tokens.clone())
        .map(|f| f.items)
        .map_err(|e| PostpassError::Parse {
            item: item.to_owned(),
            message: format!("{e} in `{tokens}`"),
        })
}

/// Runs the post-pass and returns the finished syntax tree.
///
/// # Errors
/// See [`PostpassError`].
pub fn run(
    typify: TokenStream,
    normalized: &Normalized,
    options: Options,
) -> Result<syn::File, PostpassError> {
    let mut file: syn::File = syn::parse2(typify).map_err(|e| PostpassError::Parse {
        item: "<typify output>".to_owned(),
        message: e.to_string(),
    })?;
    let mut extra = Vec::new();
    let mut keeping = std::collections::BTreeSet::new();
    for item in &mut file.items {
        if let syn::Item::Struct(s) = item {
            if let Some(facts) = normalized.structs.get(&s.ident.to_string()) {
                let (items, keeps) = rewrite_struct(s, facts, options)?;
                extra.extend(items);
                if keeps {
                    keeping.insert(s.ident.to_string());
                }
            }
        }
    }
    file.items.extend(extra);
    rewrite_transparent(&mut file)?;
    rewrite_unit_enums(&mut file)?;
    add_str_conversions(&mut file)?;
    drop_typify_defaults(&mut file, normalized);
    for e in &normalized.enums {
        file.items
            .extend(parse_items(&e.name, enum_def(e, options))?);
        file.items.extend(parse_items(&e.name, enum_impls(e))?);
    }
    for u in &normalized.unions {
        file.items
            .extend(parse_items(&u.name, union_def(u, options))?);
        file.items
            .extend(parse_items(&u.name, union_impls(u, &keeping))?);
    }
    strip_schema_docs(&mut file);
    drop_unused_error_module(&mut file);
    refuse_serde_derive(&file)?;
    mark_contracts(&mut file)?;
    Ok(file)
}

/// Marks every generated type as a contract type (`crate::encode::Contract`), which
/// `encode` requires: one `contracts!` invocation listing them.
fn mark_contracts(file: &mut syn::File) -> Result<(), PostpassError> {
    let names: Vec<&syn::Ident> = file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) => Some(&s.ident),
            syn::Item::Enum(e) => Some(&e.ident),
            _ => None,
        })
        .collect();
    if names.is_empty() {
        return Ok(());
    }
    let items = parse_items("contracts", quote!(crate::encode::contracts!(#(#names),*);))?;
    file.items.extend(items);
    Ok(())
}

/// Whether a `#[derive(...)]` among `attrs` names one of `names` (by last path segment).
fn derives(attrs: &[syn::Attribute], names: &[&str]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && quote!(#a)
                .to_string()
                .split([',', '(', ')', ' ', ':'])
                .any(|w| names.contains(&w))
    })
}

/// `Serialize` and `Deserialize` of typify's `#[serde(transparent)]` newtypes, written out: the
/// value is the inner value's.
fn rewrite_transparent(file: &mut syn::File) -> Result<(), PostpassError> {
    let mut extra = Vec::new();
    for item in &mut file.items {
        let syn::Item::Struct(s) = item else { continue };
        let transparent = s
            .attrs
            .iter()
            .any(|a| a.path().is_ident("serde") && quote!(#a).to_string().contains("transparent"));
        if !transparent {
            continue;
        }
        let (serialize, deserialize) = (
            derives(&s.attrs, &["Serialize"]),
            derives(&s.attrs, &["Deserialize"]),
        );
        let ident = s.ident.clone();
        let syn::Fields::Unnamed(fields) = &s.fields else {
            return Err(PostpassError::Unsupported {
                item: ident.to_string(),
                what: "`#[serde(transparent)]` on a struct with named fields".to_owned(),
            });
        };
        let inner = fields.unnamed[0].ty.clone();
        drop_derives(&mut s.attrs, |name| {
            name == "Serialize" || name == "Deserialize"
        });
        s.attrs.retain(|a| !a.path().is_ident("serde"));
        if serialize {
            extra.extend(parse_items(
                &ident.to_string(),
                quote! {
                    impl ::serde::Serialize for #ident {
                        fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                            ::serde::Serialize::serialize(&self.0, serializer)
                        }
                    }
                },
            )?);
        }
        if deserialize {
            extra.extend(parse_items(
                &ident.to_string(),
                quote! {
                    impl<'de> ::serde::Deserialize<'de> for #ident {
                        fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                            <#inner as ::serde::Deserialize<'de>>::deserialize(deserializer).map(Self)
                        }
                    }
                },
            )?);
        }
    }
    file.items.extend(extra);
    Ok(())
}

/// `Serialize` and `Deserialize` of string enums typify generated itself (unit variants, each
/// named by its `#[serde(rename)]` or its identifier), written out: a value is its name; an
/// unknown name fails, naming the known ones.
fn rewrite_unit_enums(file: &mut syn::File) -> Result<(), PostpassError> {
    let mut extra = Vec::new();
    for item in &mut file.items {
        let syn::Item::Enum(e) = item else { continue };
        let derives_serde = derives(&e.attrs, &["Serialize", "Deserialize"]);
        if !derives_serde || e.variants.iter().any(|v| !v.fields.is_empty()) {
            continue;
        }
        let enum_level = e.attrs.iter().find(|a| a.path().is_ident("serde"));
        if let Some(attr) = enum_level {
            return Err(PostpassError::Unsupported {
                item: e.ident.to_string(),
                what: format!("`{}` on a string enum", quote!(#attr)),
            });
        }
        let mut idents = Vec::new();
        let mut names = Vec::new();
        for variant in &mut e.variants {
            let name = variant
                .attrs
                .iter()
                .find(|a| a.path().is_ident("serde"))
                .and_then(|a| {
                    let mut rename = None;
                    let _ = a.parse_nested_meta(|meta| {
                        if meta.path.is_ident("rename") {
                            rename = Some(meta.value()?.parse::<syn::LitStr>()?.value());
                        }
                        Ok(())
                    });
                    rename
                })
                .unwrap_or_else(|| variant.ident.to_string());
            variant.attrs.retain(|a| !a.path().is_ident("serde"));
            idents.push(variant.ident.clone());
            names.push(name);
        }
        drop_derives(&mut e.attrs, |name| {
            name == "Serialize" || name == "Deserialize"
        });
        let ident = e.ident.clone();
        extra.extend(parse_items(
            &ident.to_string(),
            quote! {
                impl ::serde::Serialize for #ident {
                    fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                        serializer.serialize_str(match self { #(Self::#idents => #names,)* })
                    }
                }
                impl<'de> ::serde::Deserialize<'de> for #ident {
                    fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                        let value = crate::runtime::string(deserializer)?;
                        match &*value {
                            #(#names => ::std::result::Result::Ok(Self::#idents),)*
                            other => ::std::result::Result::Err(::serde::de::Error::unknown_variant(other, &[#(#names),*])),
                        }
                    }
                }
            },
        )?);
    }
    file.items.extend(extra);
    Ok(())
}

/// Fails when an item still derives `Serialize` or `Deserialize` or carries a `#[serde]`
/// attribute: the generated code must build without serde's derive (consumers do not build
/// `serde_derive`), so every impl is written out by this pass.
fn refuse_serde_derive(file: &syn::File) -> Result<(), PostpassError> {
    for item in &file.items {
        let (ident, attrs, fields) = match item {
            syn::Item::Struct(s) => (&s.ident, &s.attrs, s.fields.iter().collect::<Vec<_>>()),
            syn::Item::Enum(e) => (
                &e.ident,
                &e.attrs,
                e.variants.iter().flat_map(|v| v.fields.iter()).collect(),
            ),
            _ => continue,
        };
        let serde_attr = attrs
            .iter()
            .chain(fields.iter().flat_map(|f| f.attrs.iter()))
            .find(|a| {
                a.path().is_ident("serde")
                    || derives(std::slice::from_ref(a), &["Serialize", "Deserialize"])
            });
        if let Some(attr) = serde_attr {
            return Err(PostpassError::Unsupported {
                item: ident.to_string(),
                what: format!("`{}` (serde's derive is not used)", quote!(#attr)),
            });
        }
    }
    Ok(())
}

fn doc_attrs(text: Option<&str>) -> TokenStream {
    let Some(text) = text else {
        return TokenStream::new();
    };
    let lines = text.lines().map(|line| {
        let line = format!(" {line}");
        quote!(#[doc = #line])
    });
    quote!(#(#lines)*)
}

// ---------------------------------------------------------------------------------------------
// Structs

/// The JSON name of a typify field: its `#[serde(rename = "...")]`, or its identifier.
fn json_name(field: &syn::Field) -> String {
    let mut name = None;
    for attr in &field.attrs {
        if attr.path().is_ident("serde") {
            let _ = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    let lit: syn::LitStr = meta.value()?.parse()?;
                    name = Some(lit.value());
                } else if meta.input.peek(syn::Token![=]) {
                    let _: syn::Expr = meta.value()?.parse()?;
                }
                Ok(())
            });
        }
    }
    name.unwrap_or_else(|| {
        field
            .ident
            .as_ref()
            .map(|i| i.to_string().trim_start_matches("r#").to_owned())
            .unwrap_or_default()
    })
}

/// `Some(T)` when `ty` is `Option<T>` (any path spelling).
fn generic_arg<'a>(ty: &'a syn::Type, wrapper: &str) -> Option<&'a syn::Type> {
    let syn::Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != wrapper {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(t) if args.args.len() == 1 => Some(t),
        _ => None,
    }
}

/// The seed that decodes `ty` with the member path tracked through arrays.
fn seed_for(ty: &syn::Type, skip_invalid_items: bool) -> TokenStream {
    if let Some(inner) = generic_arg(ty, "Vec") {
        let item = seed_for(inner, false);
        return if skip_invalid_items {
            quote!(crate::runtime::SkipInvalid(#item))
        } else {
            quote!(crate::runtime::Seq(#item))
        };
    }
    if let Some(inner) = generic_arg(ty, "Option") {
        let inner = seed_for(inner, skip_invalid_items);
        return quote!(crate::runtime::Opt(#inner));
    }
    if let Some(inner) = generic_arg(ty, "Box") {
        let inner = seed_for(inner, skip_invalid_items);
        return quote!(crate::runtime::Boxed(#inner));
    }
    if quote!(#ty).to_string().replace(' ', "") == "::serde_json::Value" {
        return quote!(crate::runtime::AnyValue);
    }
    quote!(crate::runtime::Plain::<#ty>::new())
}

fn has_empty_value(ty: &syn::Type) -> bool {
    ["Vec", "Option", "Map", "HashMap", "BTreeMap"]
        .iter()
        .any(|w| {
            let syn::Type::Path(p) = ty else { return false };
            p.path.segments.last().is_some_and(|s| s.ident == w)
        })
}

/// Wraps `seed` in `DefaultOnError` when the member declares `x-deserialize-default-on-error`;
/// `unwrap` turns the wrapped result (an `Option` of the seed's value) into the member's value.
fn on_error(
    seed: TokenStream,
    facts: &PropertyFacts,
    unwrap: TokenStream,
) -> (TokenStream, TokenStream) {
    if facts.default_on_error {
        let enum_hint = facts.string_enum;
        (
            quote!(crate::runtime::DefaultOnError { seed: #seed, enum_hint: #enum_hint }),
            unwrap,
        )
    } else {
        (seed, quote!())
    }
}

/// One member after the rewrite.
struct Member {
    ident: syn::Ident,
    json: String,
    ty: syn::Type,
    /// Expression decoding the member's value from `map` (streaming) or `value` (buffered).
    decode: TokenStream,
    required: bool,
    /// For setters: the value type and how it is stored.
    setter: Option<(syn::Type, TokenStream)>,
    /// Doc lines on presence, `null` and declared leniency.
    notes: Vec<String>,
}

fn member(
    definition: &str,
    field: &syn::Field,
    facts: &PropertyFacts,
) -> Result<Member, PostpassError> {
    let ident = field
        .ident
        .clone()
        .expect("typify structs have named fields");
    let json = json_name(field);
    let typify_ty = &field.ty;
    let base: syn::Type = if facts.required {
        typify_ty.clone()
    } else {
        generic_arg(typify_ty, "Option")
            .unwrap_or(typify_ty)
            .clone()
    };
    let inner = seed_for(&base, facts.skip_invalid_items);
    let enum_hint = facts.string_enum;
    let no_default = |keyword: &str| PostpassError::NoDefault {
        definition: definition.to_owned(),
        member: json.clone(),
        keyword: keyword.to_owned(),
        ty: quote!(#base).to_string(),
    };
    let (ty, seed, finish, setter): (syn::Type, TokenStream, TokenStream, _) = if facts.required {
        let (seed, finish) = match (facts.default_on_error, facts.default_on_null) {
            (false, false) => (inner, quote!()),
            (true, false) => (
                quote!(crate::runtime::DefaultOnError { seed: #inner, enum_hint: #enum_hint }),
                quote!(.unwrap_or_default()),
            ),
            (false, true) => (
                quote!(crate::runtime::DefaultOnNull(#inner)),
                quote!(.unwrap_or_default()),
            ),
            (true, true) => (
                quote!(crate::runtime::DefaultOnError { seed: crate::runtime::DefaultOnNull(#inner), enum_hint: #enum_hint }),
                quote!(.flatten().unwrap_or_default()),
            ),
        };
        if (facts.default_on_error || facts.default_on_null) && !has_empty_value(&base) {
            let keyword = if facts.default_on_error {
                "x-deserialize-default-on-error"
            } else {
                "x-deserialize-default-on-null"
            };
            return Err(no_default(keyword));
        }
        (base.clone(), seed, finish, None)
    } else if facts.nullable {
        let value_ty = generic_arg(&base, "Option").unwrap_or(&base).clone();
        let inner = seed_for(&value_ty, facts.skip_invalid_items);
        let ty: syn::Type = syn::parse_quote!(crate::MaybeUndefined<#value_ty>);
        let nullable = quote!(crate::runtime::Nullable(#inner));
        let (seed, finish) = on_error(nullable, facts, quote!(.unwrap_or_default()));
        // A JSON `null` given to the setter of an untyped member is the `null` state, as
        // decoding makes it (else it would encode as `null` and decode back unequal).
        let store = if quote!(#value_ty).to_string().replace(' ', "") == "::serde_json::Value" {
            quote!(crate::MaybeUndefined::from_json(value.into()))
        } else {
            quote!(crate::MaybeUndefined::Value(value.into()))
        };
        (ty, seed, finish, Some((value_ty, store)))
    } else {
        let ty: syn::Type = syn::parse_quote!(::std::option::Option<#base>);
        let on_null = quote!(crate::runtime::DefaultOnNull(#inner));
        let (seed, finish) = on_error(on_null, facts, quote!(.flatten()));
        (
            ty,
            seed,
            finish,
            Some((
                base.clone(),
                quote!(::std::option::Option::Some(value.into())),
            )),
        )
    };
    let mut notes = Vec::new();
    if facts.required {
        notes.push(format!(
            "Required (`{json}`){}.",
            if facts.nullable {
                "; `null` is allowed and kept as `None`"
            } else {
                ""
            }
        ));
    } else if facts.nullable {
        notes.push(format!(
            "Optional, `null` allowed: absent (`Undefined`, not written), `null` (`Null`) and a value are three states, kept apart through decode and encode (`{json}`)."
        ));
    } else {
        notes.push(format!(
            "Optional (`{json}`): absent is `None` and is not written. The schema does not allow `null`; a `null` decodes as absent and is reported as `defaulted`."
        ));
    }
    if facts.default_on_error {
        notes.push("Declared leniency (`x-deserialize-default-on-error`): a malformed value decodes as absent (or empty) instead of failing the message, reported as `defaulted` (or `unknown_value` for an unknown enum value).".to_owned());
    }
    if facts.default_on_null {
        notes.push("Declared leniency (`x-deserialize-default-on-null`): `null` decodes as absent (or empty), reported as `defaulted`.".to_owned());
    }
    if facts.skip_invalid_items {
        notes.push("Declared leniency (`x-deserialize-skip-invalid-items`): an invalid item is skipped, reported as `skipped_item` with its pointer.".to_owned());
    }
    Ok(Member {
        ident,
        json,
        ty,
        decode: quote!(#seed ; #finish),
        required: facts.required,
        setter,
        notes,
    })
}

fn split_decode(decode: &TokenStream) -> (TokenStream, TokenStream) {
    let mut seed = TokenStream::new();
    let mut finish = TokenStream::new();
    let mut after = false;
    for token in decode.clone() {
        if let proc_macro2::TokenTree::Punct(p) = &token {
            if p.as_char() == ';' && !after {
                after = true;
                continue;
            }
        }
        if after {
            finish.extend([token]);
        } else {
            seed.extend([token]);
        }
    }
    (seed, finish)
}

fn rewrite_struct(
    s: &mut syn::ItemStruct,
    facts: &StructFacts,
    options: Options,
) -> Result<(Vec<syn::Item>, bool), PostpassError> {
    let name = s.ident.to_string();
    let syn::Fields::Named(named) = &s.fields else {
        return Ok((Vec::new(), false));
    };
    let deny_unknown = s.attrs.iter().any(|a| {
        a.path().is_ident("serde") && quote!(#a).to_string().contains("deny_unknown_fields")
    });
    let keep_unknown = options.keep_unknown_members && !deny_unknown && facts.flatten.is_none();
    let by_json: BTreeMap<String, &syn::Field> =
        named.named.iter().map(|f| (json_name(f), f)).collect();
    let mut members = Vec::new();
    for (json, property) in &facts.properties {
        let field = by_json
            .get(json)
            .ok_or_else(|| PostpassError::MissingMember {
                definition: name.clone(),
                member: json.clone(),
            })?;
        let m = member(&name, field, property)?;
        let mut field = (*field).clone();
        field.attrs.retain(|a| !a.path().is_ident("serde"));
        members.push((field, m));
    }

    // The struct itself: schema order, new types, serialize attributes.
    let mut fields = Vec::new();
    for (field, m) in &members {
        let mut field = field.clone();
        field.ty = m.ty.clone();
        let has_docs = field.attrs.iter().any(|a| a.path().is_ident("doc"));
        if has_docs {
            field.attrs.push(syn::parse_quote!(#[doc = ""]));
        }
        for note in &m.notes {
            let line = format!(" {note}");
            field.attrs.push(syn::parse_quote!(#[doc = #line]));
        }
        fields.push(field);
    }
    if let Some((ident, union)) = &facts.flatten {
        let ident = format_ident!("{}", ident);
        let union = format_ident!("{}", union);
        fields.push(syn::parse_quote! {
            /// The variant part of this object (members selected by its tag).
            pub #ident: #union
        });
    }
    if keep_unknown {
        fields.push(syn::parse_quote! {
            /// Members the schema does not define, kept as received (in name order) and written
            /// back when encoding, so that re-encoding loses nothing. Not reported: the schema
            /// allows them.
            pub unknown_members: ::serde_json::Map<::std::string::String, ::serde_json::Value>
        });
    }
    let syn::Fields::Named(named) = &mut s.fields else {
        unreachable!()
    };
    named.named = fields.into_iter().collect();
    // Serialize and Deserialize are ours (no serde derive: consumers do not build
    // serde_derive); keep everything else typify derived.
    let flattened = facts.flatten.is_some();
    drop_derives(&mut s.attrs, |name| {
        name == "Serialize" || name == "Deserialize" || (flattened && name == "Default")
    });
    s.attrs.retain(|a| !a.path().is_ident("serde"));
    if options.forward_compatible {
        s.attrs.push(syn::parse_quote!(#[non_exhaustive]));
    }

    let mut items = vec![
        syn::Item::Impl(serialize_struct(&s.ident, &members, facts, keep_unknown)),
        syn::Item::Impl(deserialize_struct(
            &s.ident,
            &members,
            facts,
            deny_unknown,
            keep_unknown,
        )),
    ];
    if options.forward_compatible {
        items.push(syn::Item::Impl(constructors(
            &s.ident,
            &members,
            facts,
            keep_unknown,
        )));
    }
    Ok((items, keep_unknown))
}

/// Removes the derives `remove` names from `#[derive(...)]` attributes (dropping an attribute
/// left empty).
fn drop_derives(attrs: &mut Vec<syn::Attribute>, remove: impl Fn(&str) -> bool) {
    attrs.retain_mut(|attr| {
        if !attr.path().is_ident("derive") {
            return true;
        }
        let paths: syn::punctuated::Punctuated<syn::Path, syn::Token![,]> = attr
            .parse_args_with(syn::punctuated::Punctuated::parse_terminated)
            .unwrap_or_default();
        let kept: Vec<_> = paths
            .into_iter()
            .filter(|p| {
                p.segments
                    .last()
                    .is_none_or(|s| !remove(&s.ident.to_string()))
            })
            .collect();
        if kept.is_empty() {
            return false;
        }
        *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
        true
    });
}

/// `Serialize` for a rewritten struct, as serde's derive would write it: members in schema
/// order, absent ones skipped (`Option::None`, [`MaybeUndefined::Undefined`]), then the
/// flattened union's members, then the kept unknown members. A struct with nothing flattened is
/// written with `serialize_struct`, one with a flattened part with `serialize_map`.
fn serialize_struct(
    ident: &syn::Ident,
    members: &[(syn::Field, Member)],
    facts: &StructFacts,
    keep_unknown: bool,
) -> syn::ItemImpl {
    let name = ident.to_string();
    let flattened = facts.flatten.is_some() || keep_unknown;
    let mut counts = Vec::new();
    let mut writes = Vec::new();
    for (_, m) in members {
        let field = &m.ident;
        let json = &m.json;
        let (write, skip) = if flattened {
            (
                quote!(::serde::ser::SerializeMap::serialize_entry(&mut out, #json, value)?;),
                quote!(),
            )
        } else {
            (
                quote!(::serde::ser::SerializeStruct::serialize_field(&mut out, #json, value)?;),
                quote!(else { ::serde::ser::SerializeStruct::skip_field(&mut out, #json)?; }),
            )
        };
        if m.required {
            writes.push(quote! { let value = &self.#field; #write });
        } else if generic_arg(&m.ty, "Option").is_some() {
            counts.push(quote!(usize::from(self.#field.is_some())));
            writes.push(quote! {
                if let ::std::option::Option::Some(value) = &self.#field { #write } #skip
            });
        } else {
            counts.push(quote!(usize::from(!self.#field.is_undefined())));
            writes.push(quote! {
                if !self.#field.is_undefined() { let value = &self.#field; #write } #skip
            });
        }
    }
    if flattened {
        if let Some((flat, _)) = &facts.flatten {
            let flat = format_ident!("{}", flat);
            writes.push(quote!(crate::runtime::flatten_into(&mut out, &self.#flat)?;));
        }
        if keep_unknown {
            writes.push(quote!(crate::runtime::flatten_into(&mut out, &self.unknown_members)?;));
        }
        syn::parse_quote! {
            impl ::serde::Serialize for #ident {
                fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                    let mut out = serializer.serialize_map(::std::option::Option::None)?;
                    #(#writes)*
                    ::serde::ser::SerializeMap::end(out)
                }
            }
        }
    } else {
        let required = members.iter().filter(|(_, m)| m.required).count();
        syn::parse_quote! {
            impl ::serde::Serialize for #ident {
                fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                    let len = #required #(+ #counts)*;
                    let mut out = serializer.serialize_struct(#name, len)?;
                    #(#writes)*
                    ::serde::ser::SerializeStruct::end(out)
                }
            }
        }
    }
}

fn deserialize_struct(
    ident: &syn::Ident,
    members: &[(syn::Field, Member)],
    facts: &StructFacts,
    deny_unknown: bool,
    keep_unknown: bool,
) -> syn::ItemImpl {
    let expecting = format!("an object (`{ident}`)");
    let vars: Vec<syn::Ident> = (0..members.len())
        .map(|i| format_ident!("m{}", i))
        .collect();
    let tys: Vec<&syn::Type> = members.iter().map(|(_, m)| &m.ty).collect();
    let idents: Vec<&syn::Ident> = members.iter().map(|(_, m)| &m.ident).collect();
    let finals: Vec<TokenStream> = members
        .iter()
        .zip(&vars)
        .map(|((_, m), var)| {
            let json = &m.json;
            if m.required {
                quote!(#var.ok_or_else(|| crate::runtime::missing(#json))?)
            } else {
                quote!(#var.unwrap_or_default())
            }
        })
        .collect();

    if let Some((flat_ident, union)) = &facts.flatten {
        let flat_ident = format_ident!("{}", flat_ident);
        let union = format_ident!("{}", union);
        let takes = members.iter().zip(&vars).map(|((_, m), var)| {
            let json = &m.json;
            let (seed, finish) = split_decode(&m.decode);
            quote! {
                let #var = match object.remove(#json) {
                    ::std::option::Option::Some(value) => ::std::option::Option::Some(
                        crate::runtime::member_of(&value, #json, #seed).map_err(crate::runtime::lift)? #finish
                    ),
                    ::std::option::Option::None => ::std::option::Option::None,
                };
            }
        });
        return syn::parse_quote! {
            impl<'de> ::serde::Deserialize<'de> for #ident {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                    let mut object = crate::runtime::object(deserializer, #expecting)?;
                    #(#takes)*
                    let #flat_ident = <#union as ::serde::Deserialize>::deserialize(
                        ::serde_json::Value::Object(object)
                    ).map_err(crate::runtime::lift)?;
                    ::std::result::Result::Ok(#ident { #(#idents: #finals,)* #flat_ident })
                }
            }
        };
    }

    let arms = members.iter().zip(&vars).map(|((_, m), var)| {
        let json = &m.json;
        let (seed, finish) = split_decode(&m.decode);
        quote! {
            #json => {
                if #var.is_some() {
                    return ::std::result::Result::Err(crate::runtime::duplicate(#json));
                }
                #var = ::std::option::Option::Some(crate::runtime::member(&mut map, #json, #seed)? #finish);
            }
        }
    });
    let fallback = if deny_unknown {
        let names: Vec<&str> = members.iter().map(|(_, m)| m.json.as_str()).collect();
        quote!(other => return ::std::result::Result::Err(<A::Error as ::serde::de::Error>::unknown_field(other, &[#(#names),*])),)
    } else if keep_unknown {
        quote!(other => {
            let value = map.next_value::<::serde_json::Value>()?;
            crate::runtime::keep_unknown(&mut unknown_members, other, value)?;
        })
    } else {
        quote!(_ => { map.next_value::<::serde::de::IgnoredAny>()?; })
    };
    let (unknown_init, unknown_final) = if keep_unknown {
        (
            quote!(let mut unknown_members = ::serde_json::Map::new();),
            quote!(unknown_members,),
        )
    } else {
        (quote!(), quote!())
    };
    syn::parse_quote! {
        impl<'de> ::serde::Deserialize<'de> for #ident {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                struct Visitor;
                impl<'de> ::serde::de::Visitor<'de> for Visitor {
                    type Value = #ident;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(#expecting)
                    }
                    fn visit_map<A: ::serde::de::MapAccess<'de>>(self, mut map: A) -> ::std::result::Result<#ident, A::Error> {
                        #(let mut #vars: ::std::option::Option<#tys> = ::std::option::Option::None;)*
                        #unknown_init
                        while let ::std::option::Option::Some(key) = map.next_key::<crate::runtime::Key<'de>>()? {
                            match &*key.0 {
                                #(#arms)*
                                #fallback
                            }
                        }
                        ::std::result::Result::Ok(#ident { #(#idents: #finals,)* #unknown_final })
                    }
                }
                deserializer.deserialize_map(Visitor)
            }
        }
    }
}

fn constructors(
    ident: &syn::Ident,
    members: &[(syn::Field, Member)],
    facts: &StructFacts,
    keep_unknown: bool,
) -> syn::ItemImpl {
    let mut params = Vec::new();
    let mut inits = Vec::new();
    let mut setters = Vec::new();
    for (_, m) in members {
        let name = &m.ident;
        let ty = &m.ty;
        if m.required {
            params.push(quote!(#name: impl ::std::convert::Into<#ty>));
            inits.push(quote!(#name: #name.into()));
        } else {
            inits.push(quote!(#name: ::std::default::Default::default()));
            if let Some((value_ty, store)) = &m.setter {
                let doc = format!(" Sets `{}`.", m.json);
                setters.push(quote! {
                    #[doc = #doc]
                    #[must_use]
                    pub fn #name(mut self, value: impl ::std::convert::Into<#value_ty>) -> Self {
                        self.#name = #store;
                        self
                    }
                });
            }
        }
    }
    if let Some((flat, union)) = &facts.flatten {
        let flat = format_ident!("{}", flat);
        let union = format_ident!("{}", union);
        params.push(quote!(#flat: impl ::std::convert::Into<#union>));
        inits.push(quote!(#flat: #flat.into()));
    }
    if keep_unknown {
        inits.push(quote!(unknown_members: ::serde_json::Map::new()));
    }
    let doc = format!(" A `{ident}` with its required members; optional members are absent.");
    syn::parse_quote! {
        impl #ident {
            #[doc = #doc]
            #[must_use]
            pub fn new(#(#params),*) -> Self {
                Self { #(#inits,)* }
            }
            #(#setters)*
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Enums

fn enum_def(e: &EnumDef, options: Options) -> TokenStream {
    let name = format_ident!("{}", e.name);
    let docs = doc_attrs(e.description.as_deref());
    let variants = e.values.iter().map(|v| {
        let ident = format_ident!("{}", v.name);
        let docs = doc_attrs(v.description.as_deref());
        let wire = v.wire.to_string();
        let wire_doc = format!(" On the wire: `{wire}`.");
        if v.description.is_some() {
            quote!(#docs #[doc = ""] #[doc = #wire_doc] #ident)
        } else {
            quote!(#[doc = #wire_doc] #ident)
        }
    });
    let other_ty = if e.integer {
        quote!(i64)
    } else {
        quote!(::std::string::String)
    };
    let other = e.open.then(|| {
        quote! {
            /// A value this version does not know (the schema accepts any); kept as received.
            Other(#other_ty),
        }
    });
    let copy = if e.open && !e.integer {
        quote!()
    } else {
        quote!(Copy,)
    };
    let non_exhaustive = options
        .forward_compatible
        .then(|| quote!(#[non_exhaustive]));
    quote! {
        #docs
        #[derive(Clone, #copy Debug, PartialEq, Eq, Hash)]
        #non_exhaustive
        pub enum #name {
            #(#variants,)*
            #other
        }
    }
}

fn enum_impls(e: &EnumDef) -> TokenStream {
    let name = format_ident!("{}", e.name);
    let idents: Vec<syn::Ident> = e
        .values
        .iter()
        .map(|v| format_ident!("{}", v.name))
        .collect();
    let expected: Vec<String> = e
        .values
        .iter()
        .map(|v| v.wire.to_string().trim_matches('"').to_owned())
        .collect();
    let declared_other = e
        .values
        .iter()
        .find(|v| v.wire.as_str() == Some("other"))
        .map(|v| format_ident!("{}", v.name));
    if e.integer {
        let codes: Vec<i64> = e
            .values
            .iter()
            .map(|v| v.wire.as_i64().unwrap_or_default())
            .collect();
        let unknown = if e.open {
            quote! {
                other => {
                    crate::runtime::report_unknown(crate::decode::LeniencyKind::UnknownValue, || ::serde_json::Value::from(other));
                    ::std::result::Result::Ok(Self::Other(other))
                }
            }
        } else {
            quote!(other => ::std::result::Result::Err(<D::Error as ::serde::de::Error>::custom(
                ::std::format!("unknown value `{other}`, expected one of {}", #(::std::concat!("`", #expected, "`")),*))))
        };
        let other_code = e.open.then(|| quote!(Self::Other(code) => *code,));
        return quote! {
            impl #name {
                /// The integer on the wire.
                #[must_use]
                pub fn code(&self) -> i64 {
                    match self {
                        #(Self::#idents => #codes,)*
                        #other_code
                    }
                }
            }
            impl ::serde::Serialize for #name {
                fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                    serializer.serialize_i64(self.code())
                }
            }
            impl<'de> ::serde::Deserialize<'de> for #name {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                    match <i64 as ::serde::Deserialize>::deserialize(deserializer)? {
                        #(#codes => ::std::result::Result::Ok(Self::#idents),)*
                        #unknown
                    }
                }
            }
        };
    }
    let wires: Vec<&str> = e
        .values
        .iter()
        .map(|v| v.wire.as_str().unwrap_or_default())
        .collect();
    let unknown = if e.open {
        quote! {
            other => {
                crate::runtime::report_unknown(crate::decode::LeniencyKind::UnknownValue, || ::serde_json::Value::from(other));
                ::std::result::Result::Ok(Self::Other(other.to_owned()))
            }
        }
    } else if let Some(other_variant) = &declared_other {
        quote! {
            other => {
                crate::runtime::report_unknown(crate::decode::LeniencyKind::UnknownValue, || ::serde_json::Value::from(other));
                ::std::result::Result::Ok(Self::#other_variant)
            }
        }
    } else {
        quote!(other => ::std::result::Result::Err(<D::Error as ::serde::de::Error>::unknown_variant(other, &[#(#wires),*])))
    };
    let other_str = e.open.then(|| quote!(Self::Other(value) => value,));
    let unknown_doc = if e.open {
        " Decoding keeps an unknown value in `Other` and reports it (`unknown_value`)."
    } else if declared_other.is_some() {
        " Decoding maps an unknown value to the declared `other` value and reports it (`unknown_value`)."
    } else {
        " Decoding fails on an unknown value, naming the allowed ones."
    };
    let _ = expected;
    quote! {
        impl #name {
            /// The string on the wire.
            #[doc = ""]
            #[doc = #unknown_doc]
            #[must_use]
            pub fn as_str(&self) -> &str {
                match self {
                    #(Self::#idents => #wires,)*
                    #other_str
                }
            }
        }
        impl ::std::fmt::Display for #name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let value = crate::runtime::string(deserializer)?;
                match &*value {
                    #(#wires => ::std::result::Result::Ok(Self::#idents),)*
                    #unknown
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Unions

fn payload_type(payload: &Payload) -> Option<TokenStream> {
    match payload {
        Payload::Unit => None,
        Payload::Def(name) => {
            let ident = format_ident!("{}", name);
            Some(quote!(#ident))
        }
        Payload::Rust(path) => Some(
            syn::parse_str::<syn::Type>(path)
                .map(|t| quote!(#t))
                .unwrap_or_else(|_| quote!(::serde_json::Value)),
        ),
        Payload::Raw => Some(quote!(::serde_json::Value)),
    }
}

fn union_def(u: &Union, options: Options) -> TokenStream {
    let name = format_ident!("{}", u.name);
    let docs = doc_attrs(u.description.as_deref());
    let variants = u.variants.iter().map(|v| {
        let ident = format_ident!("{}", v.name);
        let docs = doc_attrs(v.description.as_deref());
        let wire = match (&v.kind, &u.tag) {
            (VariantKind::Tagged(value), Some(tag)) => {
                format!(" On the wire: `\"{tag}\": \"{value}\"`.")
            }
            (VariantKind::CatchAll, Some(tag)) => {
                format!(" On the wire: any other `{tag}`; the raw JSON object, kept as received.")
            }
            (VariantKind::Fallback, Some(tag)) => format!(" On the wire: no known `{tag}`."),
            _ => String::new(),
        };
        let sep = (v.description.is_some() && !wire.is_empty()).then(|| quote!(#[doc = ""]));
        let wire = (!wire.is_empty()).then(|| quote!(#[doc = #wire]));
        match payload_type(&v.payload) {
            Some(ty) => quote!(#docs #sep #wire #ident(#ty)),
            None => quote!(#docs #sep #wire #ident),
        }
    });
    let non_exhaustive = options
        .forward_compatible
        .then(|| quote!(#[non_exhaustive]));
    quote! {
        #docs
        #[derive(Clone, Debug, PartialEq)]
        #non_exhaustive
        pub enum #name {
            #(#variants,)*
        }
    }
}

fn payload_seed(payload: &Payload) -> TokenStream {
    match payload_type(payload) {
        Some(ty) => {
            let ty: syn::Type = syn::parse2(ty).expect("a type");
            seed_for(&ty, false)
        }
        None => quote!(),
    }
}

fn union_impls(u: &Union, keeping: &std::collections::BTreeSet<String>) -> TokenStream {
    let name = format_ident!("{}", u.name);
    let type_name = &u.name;
    let serialize_arms = u.variants.iter().map(|v| {
        let ident = format_ident!("{}", v.name);
        match (&v.kind, &v.payload, &u.tag) {
            (VariantKind::Tagged(value), Payload::Unit, Some(tag)) => {
                quote!(Self::#ident => crate::runtime::tag_only(serializer, #tag, #value),)
            }
            (VariantKind::Tagged(value), _, Some(tag)) => {
                quote!(Self::#ident(payload) => crate::runtime::tagged(serializer, #tag, #value, payload),)
            }
            (VariantKind::Fallback, Payload::Unit, _) => {
                quote!(Self::#ident => crate::runtime::empty_object(serializer),)
            }
            (_, Payload::Unit, _) => quote!(Self::#ident => serializer.serialize_unit(),),
            (VariantKind::CatchAll, Payload::Raw, Some(tag)) => {
                quote!(Self::#ident(payload) => crate::runtime::unknown_variant_value(serializer, payload, #tag, #type_name),)
            }
            _ => quote!(Self::#ident(payload) => ::serde::Serialize::serialize(payload, serializer),),
        }
    });
    let serialize = quote! {
        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                match self {
                    #(#serialize_arms)*
                }
            }
        }
    };
    let Some(tag) = &u.tag else {
        let body = untagged_decode(u, keeping);
        return quote! {
            #serialize
            impl<'de> ::serde::Deserialize<'de> for #name {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                    let raw = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                    Self::from_raw(raw).map_err(crate::runtime::lift)
                }
            }
            impl #name {
                // Inline: compiled where a decode needs it, not in every build of this crate.
                #[inline]
                fn from_raw(raw: ::serde_json::Value) -> ::std::result::Result<Self, ::serde_json::Error> {
                    #body
                }
            }
        };
    };
    let buffered = tagged_decode(u, tag);
    let streamed = tagged_stream(u, tag);
    let has_fallback = u.variants.iter().any(|v| v.kind == VariantKind::Fallback);
    quote! {
        #serialize
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                crate::runtime::tagged_union::<D, Self>(deserializer)
            }
        }
        impl crate::runtime::Tagged for #name {
            const TAG: &'static str = #tag;
            const NAME: &'static str = #type_name;
            const HAS_FALLBACK: bool = #has_fallback;
            // Inline: compiled where a decode needs it, not in every build of this crate.
            #[inline]
            fn from_raw(raw: ::serde_json::Value) -> ::std::result::Result<Self, ::serde_json::Error> {
                #buffered
            }
            fn from_stream<'de, A: ::serde::de::MapAccess<'de>>(
                tag: ::std::option::Option<&str>,
                map: A,
            ) -> ::std::result::Result<Self, A::Error> {
                #streamed
            }
        }
    }
}

/// Decoding when the tag was the object's first member: the rest of the object streams into the
/// variant's payload, nothing is buffered (except for a catch-all, which keeps the raw JSON).
fn tagged_stream(u: &Union, tag: &str) -> TokenStream {
    let type_name = &u.name;
    let known: Vec<&str> = u
        .variants
        .iter()
        .filter_map(|v| match &v.kind {
            VariantKind::Tagged(value) => Some(value.as_str()),
            _ => None,
        })
        .collect();
    let value_of = |v: &crate::normalize::UnionVariant| {
        let ident = format_ident!("{}", v.name);
        match &v.payload {
            Payload::Unit => quote! {{
                crate::runtime::drain(map)?;
                ::std::result::Result::Ok(Self::#ident)
            }},
            Payload::Raw => {
                quote!(::std::result::Result::Ok(Self::#ident(crate::runtime::rest_with_tag(map, #tag, tag)?)))
            }
            other => {
                let seed = payload_seed(other);
                quote!(crate::runtime::Seed::run(#seed, ::serde::de::value::MapAccessDeserializer::new(map)).map(Self::#ident))
            }
        }
    };
    let arms = u.variants.iter().filter_map(|v| {
        let VariantKind::Tagged(value) = &v.kind else {
            return None;
        };
        let result = value_of(v);
        Some(quote!(::std::option::Option::Some(#value) => #result,))
    });
    let catch_all = u.variants.iter().find(|v| v.kind == VariantKind::CatchAll);
    let fallback = u.variants.iter().find(|v| v.kind == VariantKind::Fallback);
    let unknown_arm = match (catch_all, fallback) {
        (Some(v), _) => {
            let ident = format_ident!("{}", v.name);
            quote! {
                ::std::option::Option::Some(other) => {
                    crate::runtime::unknown_variant(#tag, other);
                    ::std::result::Result::Ok(Self::#ident(crate::runtime::rest_with_tag(map, #tag, tag)?))
                }
            }
        }
        (None, Some(v)) => {
            let result = value_of(v);
            quote!(::std::option::Option::Some(_) => #result,)
        }
        (None, None) => quote! {
            ::std::option::Option::Some(other) => ::std::result::Result::Err(
                crate::runtime::lift(crate::runtime::unknown_tag(#tag, other, #type_name, &[#(#known),*]))
            ),
        },
    };
    let missing_arm = match fallback {
        Some(v) => {
            let result = value_of(v);
            quote!(::std::option::Option::None => #result,)
        }
        None => quote! {
            ::std::option::Option::None => ::std::result::Result::Err(
                crate::runtime::lift(crate::runtime::missing_tag(#tag, #type_name, &[#(#known),*]))
            ),
        },
    };
    quote! {
        match tag {
            #(#arms)*
            #unknown_arm
            #missing_arm
        }
    }
}

fn variant_value(ident: &syn::Ident, payload: &Payload, tag: Option<&str>) -> TokenStream {
    match payload {
        Payload::Unit => quote!(::std::result::Result::Ok(Self::#ident)),
        Payload::Raw => quote!(::std::result::Result::Ok(Self::#ident(raw))),
        other => {
            let seed = payload_seed(other);
            match tag {
                // The payload does not define the tag: hand it the object without it.
                Some(tag) => {
                    quote!(crate::runtime::Seed::run(#seed, &crate::runtime::without(&raw, #tag)).map(Self::#ident))
                }
                None => quote!(crate::runtime::Seed::run(#seed, &raw).map(Self::#ident)),
            }
        }
    }
}

fn tagged_decode(u: &Union, tag: &str) -> TokenStream {
    let type_name = &u.name;
    let has_fallback = u.variants.iter().any(|v| v.kind == VariantKind::Fallback);
    let known: Vec<&str> = u
        .variants
        .iter()
        .filter_map(|v| match &v.kind {
            VariantKind::Tagged(value) => Some(value.as_str()),
            _ => None,
        })
        .collect();
    let arms = u.variants.iter().filter_map(|v| {
        let VariantKind::Tagged(value) = &v.kind else {
            return None;
        };
        let ident = format_ident!("{}", v.name);
        let result = variant_value(&ident, &v.payload, Some(tag));
        Some(quote!(::std::option::Option::Some(#value) => #result,))
    });
    let catch_all = u.variants.iter().find(|v| v.kind == VariantKind::CatchAll);
    let fallback = u.variants.iter().find(|v| v.kind == VariantKind::Fallback);
    let fallback_value =
        fallback.map(|v| variant_value(&format_ident!("{}", v.name), &v.payload, None));
    let unknown_arm = match (catch_all, &fallback_value) {
        (Some(v), _) => {
            let ident = format_ident!("{}", v.name);
            quote! {
                ::std::option::Option::Some(other) => {
                    crate::runtime::unknown_variant(#tag, other);
                    ::std::result::Result::Ok(Self::#ident(raw))
                }
            }
        }
        (None, Some(value)) => quote!(::std::option::Option::Some(_) => #value,),
        (None, None) => quote! {
            ::std::option::Option::Some(other) => ::std::result::Result::Err(
                crate::runtime::unknown_tag(#tag, other, #type_name, &[#(#known),*])
            ),
        },
    };
    let missing_arm = match &fallback_value {
        Some(value) => quote!(::std::option::Option::None => #value,),
        None => quote! {
            ::std::option::Option::None => ::std::result::Result::Err(
                crate::runtime::missing_tag(#tag, #type_name, &[#(#known),*])
            ),
        },
    };
    quote! {
        let tag = crate::runtime::tag_of(&raw, #tag, #type_name, #has_fallback)?;
        match tag.as_deref() {
            #(#arms)*
            #unknown_arm
            #missing_arm
        }
    }
}

/// Untagged: the first variant that decodes without leaving unknown members wins; when every
/// variant that decodes leaves some, the one leaving the fewest (the first among equals) is
/// decoded again and wins. `null` selects a unit variant.
fn untagged_decode(u: &Union, keeping: &std::collections::BTreeSet<String>) -> TokenStream {
    let type_name = &u.name;
    let unknown_count = |payload: &Payload| match payload {
        Payload::Def(name) if keeping.contains(name) => quote!(value.unknown_members.len()),
        _ => quote!(0usize),
    };
    let attempts = u.variants.iter().enumerate().map(|(index, v)| {
        let ident = format_ident!("{}", v.name);
        match &v.payload {
            Payload::Unit => quote! {
                if raw.is_null() {
                    return ::std::result::Result::Ok(Self::#ident);
                }
            },
            Payload::Raw => quote!(return ::std::result::Result::Ok(Self::#ident(raw));),
            other => {
                let seed = payload_seed(other);
                let count = unknown_count(other);
                quote! {
                    let before = crate::runtime::mark();
                    match crate::runtime::Seed::run(#seed, &raw) {
                        ::std::result::Result::Ok(value) => {
                            let misses: usize = #count;
                            if misses == 0 {
                                return ::std::result::Result::Ok(Self::#ident(value));
                            }
                            crate::runtime::rollback(before);
                            if best.is_none_or(|(fewest, _)| misses < fewest) {
                                best = ::std::option::Option::Some((misses, #index));
                            }
                        }
                        ::std::result::Result::Err(_) => crate::runtime::rollback(before),
                    }
                }
            }
        }
    });
    let retries = u.variants.iter().enumerate().filter_map(|(index, v)| {
        let ident = format_ident!("{}", v.name);
        match &v.payload {
            Payload::Unit | Payload::Raw => None,
            other => {
                let seed = payload_seed(other);
                Some(quote!(::std::option::Option::Some((_, #index)) => crate::runtime::Seed::run(#seed, &raw).map(Self::#ident),))
            }
        }
    });
    quote! {
        let mut best: ::std::option::Option<(usize, usize)> = ::std::option::Option::None;
        #(#attempts)*
        match best {
            #(#retries)*
            _ => ::std::result::Result::Err(crate::runtime::no_variant(#type_name, &raw)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Housekeeping

/// Drops the `<details><summary>JSON schema</summary> ... </details>` doc block typify adds to
/// every item.
fn strip_schema_docs(file: &mut syn::File) {
    use syn::visit_mut::VisitMut;
    struct Strip;
    impl VisitMut for Strip {
        fn visit_attributes_mut(&mut self, attrs: &mut Vec<syn::Attribute>) {
            let mut inside = false;
            attrs.retain(|attr| {
                let Some(text) = doc_text(attr) else {
                    return true;
                };
                if text.contains("<details><summary>JSON schema</summary>") {
                    inside = true;
                }
                let keep = !inside;
                if text.contains("</details>") {
                    inside = false;
                }
                keep
            });
            while attrs
                .last()
                .and_then(doc_text)
                .is_some_and(|t| t.trim().is_empty())
            {
                attrs.pop();
            }
        }
        fn visit_item_mut(&mut self, item: &mut syn::Item) {
            match item {
                syn::Item::Struct(s) => self.visit_attributes_mut(&mut s.attrs),
                syn::Item::Enum(e) => self.visit_attributes_mut(&mut e.attrs),
                _ => {}
            }
            syn::visit_mut::visit_item_mut(self, item);
        }
    }
    Strip.visit_file_mut(file);
}

fn doc_text(attr: &syn::Attribute) -> Option<String> {
    if !attr.path().is_ident("doc") {
        return None;
    }
    match &attr.meta {
        syn::Meta::NameValue(nv) => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    }
}

/// `From<&str>` for typify's string newtypes (`ToolCallId(String)`), so constructors take
/// string literals.
fn add_str_conversions(file: &mut syn::File) -> Result<(), PostpassError> {
    let mut extra = Vec::new();
    for item in &file.items {
        let syn::Item::Struct(s) = item else { continue };
        let syn::Fields::Unnamed(fields) = &s.fields else {
            continue;
        };
        let is_string = fields.unnamed.len() == 1 && {
            let ty = &fields.unnamed[0].ty;
            quote!(#ty).to_string().replace(' ', "") == "::std::string::String"
        };
        let has_from_string = file.items.iter().any(|i| {
            let syn::Item::Impl(i) = i else { return false };
            let self_ty = &i.self_ty;
            let trait_ = i
                .trait_
                .as_ref()
                .map(|(_, p, _)| quote!(#p).to_string().replace(' ', ""));
            s.ident == quote!(#self_ty).to_string()
                && trait_.is_some_and(|t| {
                    t == "::std::convert::From<::std::string::String>"
                        || t == "From<::std::string::String>"
                })
        });
        if is_string && has_from_string {
            let ident = &s.ident;
            extra.extend(parse_items(
                &ident.to_string(),
                quote! {
                    impl ::std::convert::From<&str> for #ident {
                        fn from(value: &str) -> Self {
                            Self(value.to_owned())
                        }
                    }
                },
            )?);
        }
    }
    file.items.extend(extra);
    Ok(())
}

/// Removes typify's `Default` impls of rewritten structs (their members are now `Option`s that
/// default to absent, not the schema's `default` values) and its `defaults` module once unused.
fn drop_typify_defaults(file: &mut syn::File, normalized: &Normalized) {
    file.items.retain(|item| {
        let syn::Item::Impl(i) = item else {
            return true;
        };
        let is_default = i
            .trait_
            .as_ref()
            .is_some_and(|(_, path, _)| path.segments.last().is_some_and(|s| s.ident == "Default"));
        let self_name = match &*i.self_ty {
            syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        !(is_default && self_name.is_some_and(|n| normalized.structs.contains_key(&n)))
    });
    let is_defaults_mod =
        |item: &syn::Item| matches!(item, syn::Item::Mod(m) if m.ident == "defaults");
    let used = file
        .items
        .iter()
        .filter(|item| !is_defaults_mod(item))
        .any(|item| quote!(#item).to_string().contains("defaults ::"));
    if !used {
        file.items.retain(|item| !is_defaults_mod(item));
    }
}

/// Removes typify's `pub mod error` when no other item uses `ConversionError` (it would be dead
/// code in the consumer's build).
fn drop_unused_error_module(file: &mut syn::File) {
    let is_error_mod = |item: &syn::Item| matches!(item, syn::Item::Mod(m) if m.ident == "error");
    let used = file
        .items
        .iter()
        .filter(|item| !is_error_mod(item))
        .any(|item| quote!(#item).to_string().contains("ConversionError"));
    if !used {
        file.items.retain(|item| !is_error_mod(item));
    }
}
