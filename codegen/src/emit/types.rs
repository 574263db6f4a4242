//! Rust types and seeds of the model's [`Ty`] values.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::paths::Paths;
use crate::model::{Bounds, Ty};

/// The Rust type of `ty`.
pub fn rust_type(ty: &Ty, paths: &Paths) -> TokenStream {
    match ty {
        Ty::Named(name) => {
            let ident = format_ident!("{}", name);
            quote!(#ident)
        }
        Ty::Path(path) => path.parse().unwrap_or_default(),
        Ty::Boxed(inner) => {
            let inner = rust_type(inner, paths);
            let boxed = paths.name("Box");
            quote!(#boxed<#inner>)
        }
        Ty::String => paths.name("String"),
        Ty::Bool => quote!(bool),
        Ty::Int(width) => {
            let ident = format_ident!("{}", width);
            quote!(#ident)
        }
        Ty::Number => paths.name("Number"),
        Ty::JsonNumber => paths.json_number(),
        Ty::Value => paths.any_value(),
        Ty::Object => paths.any_object(),
        Ty::Vec(inner) => {
            let inner = rust_type(inner, paths);
            let vec = paths.name("Vec");
            quote!(#vec<#inner>)
        }
        Ty::Map(inner) => {
            let inner = rust_type(inner, paths);
            let (map, string) = (paths.name("BTreeMap"), paths.name("String"));
            quote!(#map<#string, #inner>)
        }
        Ty::Nullable(inner) => {
            let inner = rust_type(inner, paths);
            let option = paths.name("Option");
            quote!(#option<#inner>)
        }
        Ty::Bounded(inner, _) | Ty::Checked(inner, _) => rust_type(inner, paths),
    }
}

/// The statics a module's seeds refer to (bounds and patterns), written beside the type.
#[derive(Default)]
pub struct Statics {
    /// The items.
    pub items: Vec<TokenStream>,
}

/// The seed that decodes `ty`, tracking the path through arrays and maps. `name` names the
/// statics of its bounds (`TOOL_NAME`).
pub fn seed(ty: &Ty, paths: &Paths, statics: &mut Statics, name: &str) -> TokenStream {
    match ty {
        Ty::Value if paths.json_values() => {
            let value = paths.any_value();
            quote!(rt::plain::<#value>())
        }
        Ty::Value => quote!(rt::any()),
        Ty::Object if !paths.json_values() => quote!(rt::any_object()),
        Ty::String => quote!(rt::text()),
        Ty::Named(alias) if paths.alias(alias).is_some() => {
            let target = paths.alias(alias).cloned().unwrap_or(Ty::Value);
            seed(&target, paths, statics, name)
        }
        Ty::Boxed(inner) => {
            let inner = seed(inner, paths, statics, name);
            quote!(rt::boxed(#inner))
        }
        Ty::Vec(inner) => {
            let inner = seed(inner, paths, statics, &format!("{name}_ITEM"));
            quote!(rt::seq(#inner))
        }
        Ty::Map(inner) => {
            let inner = seed(inner, paths, statics, &format!("{name}_VALUE"));
            quote!(rt::map_of(#inner))
        }
        Ty::Nullable(inner) => {
            let inner = seed(inner, paths, statics, name);
            quote!(rt::opt(#inner))
        }
        Ty::Bounded(inner, bounds) => {
            let inner_seed = seed(inner, paths, statics, name);
            let bounds_name = bounds_static(bounds, paths, statics, name);
            quote!(rt::bounded(#inner_seed, &#bounds_name))
        }
        Ty::Checked(inner, at) => {
            let inner_seed = seed(inner, paths, statics, name);
            let check = check_static(&at.pointer, paths, statics, name);
            quote!(rt::checked(#inner_seed, &#check))
        }
        other => {
            let rust = rust_type(other, paths);
            quote!(rt::plain::<#rust>())
        }
    }
}

/// The seed of the items of an array type (for `x-deserialize-skip-invalid-items`).
pub fn item_seed(ty: &Ty, paths: &Paths, statics: &mut Statics, name: &str) -> Option<TokenStream> {
    match ty {
        Ty::Vec(inner) => Some(seed(inner, paths, statics, &format!("{name}_ITEM"))),
        _ => None,
    }
}

fn limit(number: &serde_json::Number) -> TokenStream {
    if let Some(v) = number.as_i64() {
        quote!(rt::Limit::Int(#v))
    } else if let Some(v) = number.as_u64() {
        quote!(rt::Limit::UInt(#v))
    } else {
        let v = number.as_f64().unwrap_or(0.0);
        quote!(rt::Limit::Float(#v))
    }
}

/// Writes `static <NAME>_CHECK: rt::Check = ...;` (the part of the module's schema document at
/// `pointer`) and returns the name.
pub fn check_static(
    pointer: &str,
    paths: &Paths,
    statics: &mut Statics,
    name: &str,
) -> proc_macro2::Ident {
    let ident = paths.static_ident(&format!("{name}_CHECK"));
    let (document, reference) = paths.document(pointer);
    statics.items.push(quote! {
        static #ident: rt::Check = rt::Check::new(&#document, #pointer, #reference);
    });
    ident
}

/// Writes `static <NAME>_BOUNDS: rt::Bounds = ...;` (and its pattern) and returns the name.
fn bounds_static(
    bounds: &Bounds,
    paths: &Paths,
    statics: &mut Statics,
    name: &str,
) -> proc_macro2::Ident {
    let ident = paths.static_ident(&format!("{name}_BOUNDS"));
    let mut fields = Vec::new();
    let numbers = [
        ("minimum", &bounds.minimum),
        ("maximum", &bounds.maximum),
        ("exclusive_minimum", &bounds.exclusive_minimum),
        ("exclusive_maximum", &bounds.exclusive_maximum),
        ("multiple_of", &bounds.multiple_of),
    ];
    for (field, value) in numbers {
        if let Some(n) = value {
            let field = format_ident!("{}", field);
            let limit = limit(n);
            fields.push(quote!(#field: Some(#limit)));
        }
    }
    let counts = [
        ("min_length", bounds.min_length),
        ("max_length", bounds.max_length),
        ("min_items", bounds.min_items),
        ("max_items", bounds.max_items),
    ];
    for (field, value) in counts {
        if let Some(n) = value {
            let field = format_ident!("{}", field);
            let n = usize::try_from(n).unwrap_or(usize::MAX);
            fields.push(quote!(#field: Some(#n)));
        }
    }
    if bounds.unique_items {
        fields.push(quote!(unique_items: true));
    }
    if let Some(pattern) = &bounds.pattern {
        paths.require("patterns");
        let pattern_ident = paths.static_ident(&format!("{name}_PATTERN"));
        statics.items.push(quote! {
            static #pattern_ident: rt::Pattern = rt::Pattern::new(#pattern);
        });
        fields.push(quote!(pattern: Some(&#pattern_ident)));
    }
    statics.items.push(quote! {
        static #ident: rt::Bounds = rt::Bounds {
            #(#fields,)*
            ..rt::Bounds::NONE
        };
    });
    ident
}

/// SCREAMING_SNAKE_CASE of a type and member name, for statics.
pub fn static_name(type_name: &str, member: &str) -> String {
    let mut out = String::new();
    for (i, c) in type_name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 && !out.ends_with('_') {
            let prev = type_name.chars().nth(i - 1).unwrap_or('_');
            if prev.is_ascii_lowercase() || prev.is_ascii_digit() {
                out.push('_');
            }
        }
        out.push(c.to_ascii_uppercase());
    }
    if !member.is_empty() {
        out.push('_');
        out.push_str(&member.to_ascii_uppercase());
    }
    out
}
