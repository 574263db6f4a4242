//! Newtypes (a definition that is a scalar: `ToolCallId(String)`), aliases (a definition that is
//! another type), and tuple structs (`prefixItems`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::docs;
use super::paths::Paths;
use super::types::{rust_type, seed, static_name, Statics};
use crate::model::{Item, Tuple, Ty};

/// A newtype over a scalar and its impls.
pub fn newtype(item: &Item, ty: &Ty, paths: &Paths) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let inner = rust_type(ty, paths);
    let mut statics = Statics::default();
    // A named string type's string is an identifier a caller may read of a value checked
    // without its other strings built (`rt::name()`).
    let seed = match ty {
        Ty::String => quote!(rt::name()),
        _ => seed(ty, paths, &mut statics, &static_name(&item.name, "")),
    };
    let doc = docs::with_note(item.docs.as_deref(), "");
    let (result, from) = (paths.name("Result"), paths.name("From"));
    let (serialize, serializer, deserialize, deserializer) = (
        paths.name("Serialize"),
        paths.name("Serializer"),
        paths.name("Deserialize"),
        paths.name("Deserializer"),
    );
    let derives = match ty.unbounded() {
        Ty::String | Ty::Bool | Ty::Int(_) => {
            quote!(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)
        }
        _ => quote!(Clone, Debug, PartialEq),
    };
    let string_conversions = matches!(ty.unbounded(), Ty::String).then(|| {
        let string = paths.name("String");
        quote! {
            impl #from<&str> for #ident {
                fn from(value: &str) -> Self {
                    Self(value.to_owned())
                }
            }
            impl std::ops::Deref for #ident {
                type Target = #string;
                fn deref(&self) -> &#string {
                    &self.0
                }
            }
            impl std::str::FromStr for #ident {
                type Err = std::convert::Infallible;
                fn from_str(value: &str) -> #result<Self, Self::Err> {
                    Ok(Self(value.to_owned()))
                }
            }
        }
    });
    let display = matches!(
        ty.unbounded(),
        Ty::String | Ty::Int(_) | Ty::Bool | Ty::Number | Ty::JsonNumber
    )
    .then(|| {
        let fmt = paths.name("fmt");
        quote! {
            impl #fmt::Display for #ident {
                fn fmt(&self, f: &mut #fmt::Formatter<'_>) -> #fmt::Result {
                    #fmt::Display::fmt(&self.0, f)
                }
            }
        }
    });
    let contract = paths.contract();
    let statics = &statics.items;
    quote! {
        #doc
        #[derive(#derives)]
        pub struct #ident(pub #inner);
        impl #from<#inner> for #ident {
            fn from(value: #inner) -> Self {
                Self(value)
            }
        }
        impl #from<#ident> for #inner {
            fn from(value: #ident) -> Self {
                value.0
            }
        }
        #string_conversions
        #display
        impl #serialize for #ident {
            fn serialize<S: #serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                self.0.serialize(serializer)
            }
        }
        impl<'de> #deserialize<'de> for #ident {
            fn deserialize<D: #deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                rt::Seed::run(#seed, deserializer).map(Self)
            }
        }
        impl rt::Sealed for #ident {}
        impl #contract for #ident {}
        #(#statics)*
    }
}

/// `type Name = ...;`
pub fn alias(item: &Item, ty: &Ty, paths: &Paths) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let target = rust_type(ty, paths);
    let doc = docs::with_note(item.docs.as_deref(), "");
    quote! {
        #doc
        pub type #ident = #target;
    }
}

/// A tuple struct for a `prefixItems` array.
pub fn tuple(item: &Item, t: &Tuple, paths: &Paths) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let type_name = &item.name;
    let mut statics = Statics::default();
    let option = paths.name("Option");
    let vec = paths.name("Vec");
    let mut fields = Vec::new();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let mut inits = Vec::new();
    for (i, ty) in t.items.iter().enumerate() {
        let rust = rust_type(ty, paths);
        let seed = seed(
            ty,
            paths,
            &mut statics,
            &static_name(type_name, &format!("ITEM{i}")),
        );
        let slot = format_ident!("item{}", i);
        let index = syn::Index::from(i);
        if i < t.required {
            fields.push(quote!(pub #rust));
            reads.push(quote! {
                let #slot = rt::element(&mut access, #i, #seed)?
                    .ok_or_else(|| rt::too_short::<A::Error>(#type_name, #i))?;
            });
            writes.push(quote!(out.serialize_element(&self.#index)?;));
        } else {
            fields.push(quote!(pub #option<#rust>));
            reads.push(quote! {
                let #slot = if done { None } else { rt::element(&mut access, #i, #seed)? };
                let done = done || #slot.is_none();
            });
            writes.push(quote! {
                if let Some(item) = &self.#index {
                    out.serialize_element(item)?;
                }
            });
        }
        inits.push(quote!(#slot));
    }
    let rest_field = t.rest.as_ref().map(|ty| {
        let rust = rust_type(ty, paths);
        quote!(pub #vec<#rust>)
    });
    let rest_read = match &t.rest {
        Some(ty) => {
            let seed = seed(ty, paths, &mut statics, &static_name(type_name, "REST"));
            let count = t.items.len();
            quote! {
                let mut rest = #vec::new();
                if !done {
                    while let Some(item) = rt::element(&mut access, #count + rest.len(), #seed)? {
                        rest.push(item);
                    }
                }
            }
        }
        None => {
            let count = t.items.len();
            quote! {
                if !done && rt::element(&mut access, #count, rt::any())?.is_some() {
                    return Err(rt::too_long::<A::Error>(#type_name, #count));
                }
            }
        }
    };
    if t.rest.is_some() {
        let index = syn::Index::from(t.items.len());
        writes.push(quote! {
            for item in &self.#index {
                out.serialize_element(item)?;
            }
        });
        inits.push(quote!(rest));
    }
    let doc = docs::with_note(item.docs.as_deref(), "");
    let (result, fmt) = (paths.name("Result"), paths.name("fmt"));
    let (serialize, serializer, deserialize, deserializer) = (
        paths.name("Serialize"),
        paths.name("Serializer"),
        paths.name("Deserialize"),
        paths.name("Deserializer"),
    );
    let _ = paths.name("SerializeSeq");
    let de = paths.name("de");
    let expecting = format!("an array (`{type_name}`)");
    let contract = paths.contract();
    let statics = &statics.items;
    let first_done = quote!(let done = false;);
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        pub struct #ident(#(#fields,)* #rest_field);
        impl #serialize for #ident {
            fn serialize<S: #serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                let mut out = serializer.serialize_seq(None)?;
                #(#writes)*
                out.end()
            }
        }
        impl<'de> #deserialize<'de> for #ident {
            fn deserialize<D: #deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                struct Visitor;
                impl<'de> #de::Visitor<'de> for Visitor {
                    type Value = #ident;
                    fn expecting(&self, f: &mut #fmt::Formatter<'_>) -> #fmt::Result {
                        f.write_str(#expecting)
                    }
                    fn visit_seq<A: #de::SeqAccess<'de>>(self, mut access: A) -> #result<#ident, A::Error> {
                        #first_done
                        #(#reads)*
                        #rest_read
                        Ok(#ident(#(#inits),*))
                    }
                }
                deserializer.deserialize_seq(Visitor)
            }
        }
        impl rt::Sealed for #ident {}
        impl #contract for #ident {}
        #(#statics)*
    }
}
