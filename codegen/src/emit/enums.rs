//! Enumerations: a variant per value (and `Other` keeping any other value when the schema
//! accepts others); `as_str` (or `code` for integers), `Display`, `Serialize`, `Deserialize`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::docs;
use super::paths::Paths;
use super::Options;
use crate::model::{Enum, Item};

/// The enum `item` and its impls.
pub fn emit(item: &Item, e: &Enum, paths: &Paths, options: &Options) -> TokenStream {
    let ident = format_ident!("{}", item.name);
    let type_name = &item.name;
    let copy = e.other.is_none().then(|| quote!(Copy,));
    let non_exhaustive = options
        .forward_compatible
        .then(|| quote!(#[non_exhaustive]));
    let (string, result, fmt) = (
        paths.name("String"),
        paths.name("Result"),
        paths.name("fmt"),
    );
    let (serialize, serializer, deserialize, deserializer) = (
        paths.name("Serialize"),
        paths.name("Serializer"),
        paths.name("Deserialize"),
        paths.name("Deserializer"),
    );
    let de = paths.name("de");
    let variants = e.values.iter().map(|v| {
        let name = format_ident!("{}", v.name);
        let wire = v.wire.to_string();
        let doc = docs::with_note(v.docs.as_deref(), &format!("`{wire}`."));
        quote!(#doc #name,)
    });
    let other = e.other.as_ref().map(|o| {
        let name = format_ident!("{}", o.name);
        let doc = docs::with_note(
            o.docs.as_deref(),
            "Any other value the schema accepts, as it arrived.",
        );
        let ty = if e.integer {
            quote!(i64)
        } else {
            string.clone()
        };
        quote!(#doc #name(#ty),)
    });
    let doc = docs::with_note(item.docs.as_deref(), "");
    let definition = quote! {
        #doc
        #[derive(Clone, #copy Debug, PartialEq, Eq, Hash)]
        #non_exhaustive
        pub enum #ident {
            #(#variants)*
            #other
        }
    };
    let contract = paths.contract();
    let marker = quote! {
        impl rt::Sealed for #ident {}
        impl #contract for #ident {}
    };
    if e.integer {
        let arms = e.values.iter().map(|v| {
            let name = format_ident!("{}", v.name);
            let code = v.wire.as_i64().unwrap_or_default();
            quote!(Self::#name => #code,)
        });
        let from_arms = e.values.iter().map(|v| {
            let name = format_ident!("{}", v.name);
            let code = v.wire.as_i64().unwrap_or_default();
            quote!(#code => Ok(Self::#name),)
        });
        let (other_arm, unknown) = match &e.other {
            Some(o) => {
                let name = format_ident!("{}", o.name);
                (
                    quote!(Self::#name(code) => *code,),
                    quote!(other => Ok(Self::#name(other)),),
                )
            }
            None => {
                let expected = format!(
                    "one of {} (`{type_name}`)",
                    e.values
                        .iter()
                        .map(|v| format!("`{}`", v.wire))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                (
                    quote!(),
                    quote!(other => Err(#de::Error::invalid_value(
                        #de::Unexpected::Signed(other),
                        &#expected,
                    )),),
                )
            }
        };
        return quote! {
            #definition
            impl #ident {
                /// The wire value.
                #[must_use]
                pub fn code(&self) -> i64 {
                    match self {
                        #(#arms)*
                        #other_arm
                    }
                }
            }
            impl #fmt::Display for #ident {
                fn fmt(&self, f: &mut #fmt::Formatter<'_>) -> #fmt::Result {
                    write!(f, "{}", self.code())
                }
            }
            impl #serialize for #ident {
                fn serialize<S: #serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                    serializer.serialize_i64(self.code())
                }
            }
            impl<'de> #deserialize<'de> for #ident {
                fn deserialize<D: #deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                    match i64::deserialize(deserializer)? {
                        #(#from_arms)*
                        #unknown
                    }
                }
            }
            #marker
        };
    }
    let arms = e.values.iter().map(|v| {
        let name = format_ident!("{}", v.name);
        let wire = v.wire.as_str().unwrap_or_default();
        quote!(Self::#name => #wire,)
    });
    let from_arms = e.values.iter().map(|v| {
        let name = format_ident!("{}", v.name);
        let wire = v.wire.as_str().unwrap_or_default();
        quote!(#wire => Ok(Self::#name),)
    });
    let known: Vec<&str> = e.values.iter().filter_map(|v| v.wire.as_str()).collect();
    let (other_arm, unknown) = match &e.other {
        Some(o) => {
            let name = format_ident!("{}", o.name);
            (
                quote!(Self::#name(value) => value,),
                quote!(_ => Ok(Self::#name(value.into_owned())),),
            )
        }
        None => match &e.unknown_as {
            Some(name) => {
                let name = format_ident!("{}", name);
                (
                    quote!(),
                    quote!(other => {
                        rt::unknown_value(other);
                        Ok(Self::#name)
                    }),
                )
            }
            None => (
                quote!(),
                quote!(other => Err(#de::Error::unknown_variant(other, &[#(#known),*])),),
            ),
        },
    };
    quote! {
        #definition
        impl #ident {
            /// The wire value.
            #[must_use]
            pub fn as_str(&self) -> &str {
                match self {
                    #(#arms)*
                    #other_arm
                }
            }
        }
        impl #fmt::Display for #ident {
            fn fmt(&self, f: &mut #fmt::Formatter<'_>) -> #fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl #serialize for #ident {
            fn serialize<S: #serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
        impl<'de> #deserialize<'de> for #ident {
            fn deserialize<D: #deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                let value = rt::string(deserializer)?;
                match &*value {
                    #(#from_arms)*
                    #unknown
                }
            }
        }
        #marker
    }
}
