//! Stage 5: a `syn` pass over typify's output.
//!
//! - Emits the [`TaggedUnion`]s that [`crate::normalize`] took away from typify, as internally
//!   tagged enums with variant names from the tag values and newtype variants over the
//!   referenced structs.
//! - Removes the copies of source schemas that typify puts in doc comments (they dominate diffs
//!   and the schema file is the source).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::normalize::{Normalized, TaggedUnion};

/// Why the post-pass failed.
#[derive(Debug, thiserror::Error)]
pub enum PostpassError {
    /// typify's output (or ours) is not a Rust file syn can parse.
    #[error("typify output does not parse as Rust: {message}")]
    Parse {
        /// syn's message.
        message: String,
    },
}

/// Runs the post-pass and returns the finished syntax tree.
///
/// # Errors
/// [`PostpassError::Parse`] when the tokens are not a Rust file.
pub fn run(typify: TokenStream, normalized: &Normalized) -> Result<syn::File, PostpassError> {
    let mut file: syn::File = syn::parse2(typify).map_err(|e| PostpassError::Parse {
        message: e.to_string(),
    })?;
    for union in &normalized.unions {
        let item: syn::Item = syn::parse2(tagged_union(union)).map_err(|e| PostpassError::Parse {
            message: format!("{}: {e}", union.name),
        })?;
        file.items.push(item);
    }
    strip_schema_docs(&mut file);
    drop_unused_error_module(&mut file);
    Ok(file)
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

fn tagged_union(union: &TaggedUnion) -> TokenStream {
    let name = format_ident!("{}", union.name);
    let tag = &union.tag;
    let docs = doc_attrs(union.description.as_deref());
    let variants = union.variants.iter().map(|v| {
        let ident = format_ident!("{}", v.name);
        let wire = &v.tag;
        let docs = doc_attrs(v.description.as_deref());
        match &v.payload {
            Some(payload) => {
                let payload = format_ident!("{}", payload);
                quote!(#docs #[serde(rename = #wire)] #ident(#payload))
            }
            None => quote!(#docs #[serde(rename = #wire)] #ident),
        }
    });
    quote! {
        #docs
        #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
        #[serde(tag = #tag)]
        pub enum #name {
            #(#variants,)*
        }
    }
}

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
            // typify leaves an empty doc line before the block.
            while attrs.last().and_then(doc_text).is_some_and(|t| t.trim().is_empty()) {
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
