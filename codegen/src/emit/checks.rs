//! Run-time checks: the module's schema document, and the `Deserialize` of a type whose own
//! schema needs a check (it validates the value's raw JSON, then decodes the shape through
//! `rt::Unchecked`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::paths::Paths;
use super::types::{check_static, static_name, Statics};
use crate::model::checks::{Document, Draft};
use crate::model::{CheckAt, Item};

/// `static SCHEMA: rt::Document = ...;`
pub fn document(document: &Document) -> TokenStream {
    let base = &document.base;
    let text = &document.text;
    let draft = format_ident!(
        "{}",
        match document.draft {
            Draft::Draft4 => "Draft4",
            Draft::Draft6 => "Draft6",
            Draft::Draft7 => "Draft7",
            Draft::Draft201909 => "Draft201909",
            Draft::Draft202012 => "Draft202012",
        }
    );
    let remotes = document
        .remotes
        .iter()
        .map(|(uri, text)| quote!((#uri, #text)));
    let assert_formats = document.assert_formats;
    quote! {
        /// The schema this module was generated from, as written, for the assertions its types
        /// cannot carry (checked when decoding).
        static SCHEMA: rt::Document = rt::Document {
            base: #base,
            draft: rt::Draft::#draft,
            text: #text,
            remotes: &[#(#remotes),*],
            assert_formats: #assert_formats,
        };
    }
}

/// The keywords a check enforces, for docs: `` `not`, `patternProperties` ``.
pub fn keywords(at: &CheckAt) -> String {
    at.keywords
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `tokens` (an item and its impls) with its `Deserialize` checking the value against `at`
/// first, and a doc line saying so.
pub fn with_check(item: &Item, at: &CheckAt, tokens: TokenStream, paths: &Paths) -> TokenStream {
    let Ok(mut file) = syn::parse2::<syn::File>(tokens.clone()) else {
        // A bug in the emitter: keep the tokens so the compiler names the problem.
        return tokens;
    };
    let ident = format_ident!("{}", item.name);
    let mut statics = Statics::default();
    let check = check_static(
        &at.pointer,
        paths,
        &mut statics,
        &static_name(&item.name, ""),
    );
    let note = format!(
        " Checked when decoding against the schema at `{}` ({}), which the type does not carry.",
        at.pointer,
        keywords(at)
    );
    let (deserializer, result) = (paths.name("Deserializer"), paths.name("Result"));
    let mut items = Vec::new();
    for syn_item in file.items.drain(..) {
        match syn_item {
            syn::Item::Impl(imp) if is_deserialize_of(&imp, &item.name) => {
                let Some(syn::ImplItem::Fn(function)) = imp.items.first() else {
                    items.push(syn::Item::Impl(imp));
                    continue;
                };
                let body = &function.block;
                let trait_path = imp.trait_.as_ref().map(|(_, path, _)| path);
                let checked: syn::File = syn::parse_quote! {
                    impl<'de> #trait_path for #ident {
                        fn deserialize<D: #deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                            rt::checked_item(deserializer, &#check)
                        }
                    }
                    impl rt::Unchecked for #ident {
                        fn deserialize_unchecked<'de, D: #deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> #body
                    }
                };
                items.extend(checked.items);
            }
            syn::Item::Struct(mut s) if s.ident == ident => {
                add_doc(&mut s.attrs, &note);
                items.push(syn::Item::Struct(s));
            }
            syn::Item::Enum(mut e) if e.ident == ident => {
                add_doc(&mut e.attrs, &note);
                items.push(syn::Item::Enum(e));
            }
            other => items.push(other),
        }
    }
    let statics = &statics.items;
    quote!(#(#items)* #(#statics)*)
}

/// `note` as a paragraph of its own after the item's docs, before its other attributes.
fn add_doc(attrs: &mut Vec<syn::Attribute>, note: &str) {
    let at = attrs
        .iter()
        .rposition(|a| a.path().is_ident("doc"))
        .map_or(0, |i| i + 1);
    let mut lines: Vec<syn::Attribute> = Vec::new();
    if at > 0 {
        lines.push(syn::parse_quote!(#[doc = ""]));
    }
    lines.push(syn::parse_quote!(#[doc = #note]));
    attrs.splice(at..at, lines);
}

fn is_deserialize_of(imp: &syn::ItemImpl, name: &str) -> bool {
    let is_deserialize = imp.trait_.as_ref().is_some_and(|(_, path, _)| {
        path.segments
            .last()
            .is_some_and(|segment| segment.ident == "Deserialize")
    });
    let is_self = matches!(&*imp.self_ty, syn::Type::Path(p) if p.path.is_ident(name));
    is_deserialize && is_self
}
