//! How generated code names what it uses: short names brought in by a `use` prelude, unless a
//! generated type has the same name (a schema definition called `Result`, `Value` or `Map`),
//! in which case that one name is written in full and not imported.

use std::cell::RefCell;
use std::collections::BTreeSet;

use crate::model::Ty;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The version of `toolcall-contracts`' support module (`__private`) that the code generated
/// for a user's crate calls. A user's module names it first
/// (`::toolcall_contracts::__toolcall_runtime!(1, "0.1.0")`), and a `toolcall-contracts` that
/// provides another version refuses it with one message naming both, rather than with errors
/// deep inside the calls. Raised with every change of `__private` that modules generated
/// before would not compile against (it must equal `toolcall_contracts::__private::RUNTIME`:
/// the snapshot modules compile against it in `tests/codegen/`).
pub const RUNTIME: u32 = 1;

/// Where generated code finds the support it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    /// Inside `toolcall-contracts` itself: `crate::__private`.
    Crate,
    /// In a user's crate depending on `toolcall-contracts`: `::toolcall_contracts::__private`.
    External,
}

/// A name generated code uses, with where it comes from.
struct Known {
    short: &'static str,
    /// The `use` path (`serde_json::Value`); `None` for names of the Rust prelude.
    import: Option<&'static str>,
    /// The full path when the short name is taken.
    full: &'static str,
}

const KNOWN: &[Known] = &[
    Known {
        short: "BTreeMap",
        import: Some("std::collections::BTreeMap"),
        full: "::std::collections::BTreeMap",
    },
    Known {
        short: "fmt",
        import: Some("std::fmt"),
        full: "::std::fmt",
    },
    Known {
        short: "Map",
        import: Some("serde_json::Map"),
        full: "::serde_json::Map",
    },
    Known {
        short: "Number",
        import: Some("serde_json::Number"),
        full: "::serde_json::Number",
    },
    Known {
        short: "Value",
        import: Some("serde_json::Value"),
        full: "::serde_json::Value",
    },
    Known {
        short: "de",
        import: Some("serde::de"),
        full: "::serde::de",
    },
    Known {
        short: "Deserialize",
        import: Some("serde::Deserialize"),
        full: "::serde::Deserialize",
    },
    Known {
        short: "Deserializer",
        import: Some("serde::Deserializer"),
        full: "::serde::Deserializer",
    },
    Known {
        short: "Serialize",
        import: Some("serde::Serialize"),
        full: "::serde::Serialize",
    },
    Known {
        short: "Serializer",
        import: Some("serde::Serializer"),
        full: "::serde::Serializer",
    },
    Known {
        short: "SerializeMap",
        import: Some("serde::ser::SerializeMap"),
        full: "::serde::ser::SerializeMap",
    },
    Known {
        short: "SerializeSeq",
        import: Some("serde::ser::SerializeSeq"),
        full: "::serde::ser::SerializeSeq",
    },
    Known {
        short: "String",
        import: None,
        full: "::std::string::String",
    },
    Known {
        short: "Vec",
        import: None,
        full: "::std::vec::Vec",
    },
    Known {
        short: "Box",
        import: None,
        full: "::std::boxed::Box",
    },
    Known {
        short: "Option",
        import: None,
        full: "::std::option::Option",
    },
    Known {
        short: "Result",
        import: None,
        full: "::std::result::Result",
    },
    Known {
        short: "Default",
        import: None,
        full: "::std::default::Default",
    },
    Known {
        short: "From",
        import: None,
        full: "::std::convert::From",
    },
    Known {
        short: "Into",
        import: None,
        full: "::std::convert::Into",
    },
];

/// The names of one generated module.
pub struct Paths {
    runtime: Runtime,
    /// Generated type names (they shadow short names).
    types: BTreeSet<String>,
    used: RefCell<BTreeSet<&'static str>>,
    uses_maybe: RefCell<bool>,
    uses_contract: RefCell<bool>,
    uses_json_number: RefCell<bool>,
    uses_json_value: RefCell<bool>,
    /// A value of any kind is a `JsonValue` (see `Model::json_values`).
    json_values: bool,
    /// The references of the module's checks, by pointer.
    targets: std::collections::BTreeMap<String, String>,
    /// Features of `toolcall-contracts` the module needs (`patterns`, `checks`).
    features: RefCell<BTreeSet<&'static str>>,
    /// Names of the module's statics so far (two types may derive the same one: `A_ITEM`, the
    /// items of `A`, and `AItem`).
    statics: RefCell<BTreeSet<String>>,
    /// The module's aliases of arrays and maps (`type Tags = Vec<String>;`), by name: a value
    /// of one is decoded through the seed of what it names, so that an item's error names the
    /// item (`/tags/1`), not the array.
    aliases: std::collections::BTreeMap<String, Ty>,
}

impl Paths {
    /// The names of a module generating `types`.
    #[must_use]
    pub fn new(runtime: Runtime, types: impl IntoIterator<Item = String>) -> Self {
        Self {
            runtime,
            types: types.into_iter().collect(),
            used: RefCell::new(BTreeSet::new()),
            uses_maybe: RefCell::new(false),
            uses_contract: RefCell::new(false),
            uses_json_number: RefCell::new(false),
            uses_json_value: RefCell::new(false),
            json_values: false,
            targets: std::collections::BTreeMap::new(),
            features: RefCell::new(BTreeSet::new()),
            statics: RefCell::new(BTreeSet::new()),
            aliases: std::collections::BTreeMap::new(),
        }
    }

    /// Records the module's aliases of arrays and maps.
    pub fn set_aliases(&mut self, aliases: impl IntoIterator<Item = (String, Ty)>) {
        self.aliases = aliases
            .into_iter()
            .filter(|(_, ty)| matches!(ty, Ty::Vec(_) | Ty::Map(_)))
            .collect();
    }

    /// The array or map type the alias `name` names.
    #[must_use]
    pub fn alias(&self, name: &str) -> Option<&Ty> {
        self.aliases.get(name)
    }

    /// A static's identifier, `name` unless the module already has a static of that name
    /// (then `name_2`, `name_3`...).
    #[must_use]
    pub fn static_ident(&self, name: &str) -> proc_macro2::Ident {
        let mut statics = self.statics.borrow_mut();
        let mut candidate = name.to_owned();
        let mut n = 2;
        while statics.contains(&candidate) {
            candidate = format!("{name}_{n}");
            n += 1;
        }
        statics.insert(candidate.clone());
        format_ident!("{}", candidate)
    }

    /// Records that the module needs the feature `feature` of `toolcall-contracts`.
    pub fn require(&self, feature: &'static str) {
        self.features.borrow_mut().insert(feature);
    }

    /// The features of `toolcall-contracts` the module needs, sorted.
    #[must_use]
    pub fn features(&self) -> Vec<&'static str> {
        self.features.borrow().iter().copied().collect()
    }

    /// The module's schema document (`SCHEMA`), which its checks validate against, and the
    /// reference a check at `pointer` validates against (`""` for the whole document);
    /// records that the module needs the feature `checks`.
    #[must_use]
    pub fn document(&self, pointer: &str) -> (TokenStream, String) {
        self.require("checks");
        let reference = self.targets.get(pointer).cloned().unwrap_or_default();
        (quote!(SCHEMA), reference)
    }

    /// The references of the module's checks, by pointer.
    pub fn set_targets(&mut self, targets: std::collections::BTreeMap<String, String>) {
        self.targets = targets;
    }

    /// The tokens for a known name (`Value`, `Result`...), recording its use.
    ///
    /// # Panics
    /// On a name not in the known list (a bug in the emitter).
    #[must_use]
    pub fn name(&self, short: &'static str) -> TokenStream {
        let known = KNOWN
            .iter()
            .find(|k| k.short == short)
            .unwrap_or_else(|| panic!("`{short}` is not a known name of generated code"));
        if self.types.contains(short) {
            known.full.parse().unwrap_or_default()
        } else {
            self.used.borrow_mut().insert(short);
            let ident = format_ident!("{}", short);
            quote!(#ident)
        }
    }

    /// `MaybeUndefined`.
    #[must_use]
    pub fn maybe(&self) -> TokenStream {
        *self.uses_maybe.borrow_mut() = true;
        if self.types.contains("MaybeUndefined") {
            let root = self.root();
            quote!(#root::MaybeUndefined)
        } else {
            quote!(MaybeUndefined)
        }
    }

    /// `JsonNumber`.
    #[must_use]
    pub fn json_number(&self) -> TokenStream {
        *self.uses_json_number.borrow_mut() = true;
        if self.types.contains("JsonNumber") {
            let root = self.root();
            quote!(#root::JsonNumber)
        } else {
            quote!(JsonNumber)
        }
    }

    /// Makes a value of any kind a `JsonValue` (see `Model::json_values`).
    pub fn set_json_values(&mut self, json_values: bool) {
        self.json_values = json_values;
    }

    /// Whether a value of any kind is a `JsonValue`.
    #[must_use]
    pub fn json_values(&self) -> bool {
        self.json_values
    }

    /// The type of a value of any kind: `JsonValue`, or `Value` (`serde_json::Value`).
    #[must_use]
    pub fn any_value(&self) -> TokenStream {
        if !self.json_values {
            return self.name("Value");
        }
        *self.uses_json_value.borrow_mut() = true;
        if self.types.contains("JsonValue") {
            let root = self.root();
            quote!(#root::JsonValue)
        } else {
            quote!(JsonValue)
        }
    }

    /// The type of any object: `BTreeMap<String, JsonValue>`, or `Map<String, Value>`.
    #[must_use]
    pub fn any_object(&self) -> TokenStream {
        let value = self.any_value();
        let (map, string) = if self.json_values {
            (self.name("BTreeMap"), self.name("String"))
        } else {
            (self.name("Map"), self.name("String"))
        };
        quote!(#map<#string, #value>)
    }

    /// `Contract`.
    #[must_use]
    pub fn contract(&self) -> TokenStream {
        *self.uses_contract.borrow_mut() = true;
        if self.types.contains("Contract") {
            let root = self.root();
            quote!(#root::Contract)
        } else {
            quote!(Contract)
        }
    }

    fn root(&self) -> TokenStream {
        match self.runtime {
            Runtime::Crate => quote!(crate),
            Runtime::External => quote!(::toolcall_contracts),
        }
    }

    /// The `use` prelude of the module: every short name used, and `rt`.
    #[must_use]
    pub fn prelude(&self, needs_rt: bool) -> TokenStream {
        let mut lines = Vec::new();
        let used = self.used.borrow();
        let mut std_items = Vec::new();
        let mut serde_items = Vec::new();
        let mut serde_json_items = Vec::new();
        for known in KNOWN {
            let (Some(import), true) = (known.import, used.contains(known.short)) else {
                continue;
            };
            let path: Vec<&str> = import.split("::").collect();
            let rest = path[1..].join("::");
            match path[0] {
                "std" => std_items.push(rest),
                "serde" => serde_items.push(rest),
                _ => serde_json_items.push(rest),
            }
        }
        for (krate, items) in [
            ("std", std_items),
            ("serde", serde_items),
            ("serde_json", serde_json_items),
        ] {
            if items.is_empty() {
                continue;
            }
            let text = if items.len() == 1 {
                format!("use {krate}::{};", items[0])
            } else {
                format!("use {krate}::{{{}}};", items.join(", "))
            };
            lines.push(text.parse::<TokenStream>().unwrap_or_default());
        }
        let root = self.root();
        let mut root_items = Vec::new();
        if *self.uses_contract.borrow() && !self.types.contains("Contract") {
            root_items.push(quote!(Contract));
        }
        if *self.uses_json_number.borrow() && !self.types.contains("JsonNumber") {
            root_items.push(quote!(JsonNumber));
        }
        if *self.uses_json_value.borrow() && !self.types.contains("JsonValue") {
            root_items.push(quote!(JsonValue));
        }
        if *self.uses_maybe.borrow() && !self.types.contains("MaybeUndefined") {
            root_items.push(quote!(MaybeUndefined));
        }
        if needs_rt && self.runtime == Runtime::External {
            // `use ::toolcall_contracts::{Contract, ..., __private as rt};`, once the runtime is
            // the one this module was generated for.
            let runtime = proc_macro2::Literal::u32_unsuffixed(RUNTIME);
            let codegen = env!("CARGO_PKG_VERSION");
            lines.push(quote!(#root::__toolcall_runtime!(#runtime, #codegen #(, #root_items)*);));
            return quote!(#(#lines)*);
        }
        if needs_rt {
            root_items.push(quote!(__private as rt));
        }
        if !root_items.is_empty() {
            lines.push(quote!(use #root::{#(#root_items),*};));
        }
        quote!(#(#lines)*)
    }
}
