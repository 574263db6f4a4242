//! The emitter: writes each item of the [`Model`] followed by its impls, one module per kind of
//! item, under a `use` prelude; formats with prettyplease and adds the `@generated` header.

mod checks;
mod docs;
mod enums;
mod newtypes;
pub mod paths;
mod structs;
mod types;
mod unions;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{Kind, Model};
use paths::{Paths, Runtime};

/// How a module is emitted.
#[derive(Debug, Clone)]
pub struct Options {
    /// Where the support code is (`crate::__private` or `::toolcall_contracts::__private`).
    pub runtime: Runtime,
    /// `#[non_exhaustive]` types with `new(required...)` and setters.
    pub forward_compatible: bool,
    /// The first line of the file, after `// @generated `: the command and the sources.
    pub header: String,
}

/// `Type::deserialize(arg)`, or the fully qualified call when a generated type shadows
/// `Deserialize`.
pub(crate) fn deserialize_call(ty: &TokenStream, arg: &TokenStream, paths: &Paths) -> TokenStream {
    let deserialize = paths.name("Deserialize");
    if deserialize.to_string() == "Deserialize" {
        quote!(#ty::deserialize(#arg))
    } else {
        quote!(<#ty as #deserialize>::deserialize(#arg))
    }
}

/// The Rust source of `model`.
#[must_use]
pub fn render(model: &Model, options: &Options) -> String {
    let mut paths = Paths::new(options.runtime, model.items.iter().map(|i| i.name.clone()));
    paths.set_json_values(model.json_values);
    paths.set_aliases(
        model
            .items
            .iter()
            .filter_map(|item| match (&item.kind, &item.check) {
                (Kind::Alias(ty), None) => Some((item.name.clone(), ty.clone())),
                _ => None,
            }),
    );
    if let Some(document) = &model.document {
        paths.set_targets(document.targets.clone());
    }
    let mut items = Vec::new();
    for item in &model.items {
        let tokens = match &item.kind {
            Kind::Struct(s) => structs::emit(item, s, &paths, options),
            Kind::Union(u) => unions::emit(item, u, model, &paths, options),
            Kind::Enum(e) => enums::emit(item, e, &paths, options),
            Kind::Newtype(ty) => newtypes::newtype(item, ty, &paths),
            Kind::Alias(ty) => newtypes::alias(item, ty, &paths),
            Kind::Tuple(t) => newtypes::tuple(item, t, &paths),
        };
        let tokens = match &item.check {
            Some(at) => checks::with_check(item, at, tokens, &paths),
            None => tokens,
        };
        items.push(tokens);
    }
    let document = model.document.as_ref().map(checks::document);
    // A module of only aliases (`type Tags = Vec<String>;`) calls no support code.
    let needs_rt = model
        .items
        .iter()
        .any(|item| !matches!(item.kind, Kind::Alias(_)));
    let prelude = paths.prelude(needs_rt);
    // A module that needs a feature of `toolcall-contracts` says which when it is off, instead
    // of failing deep inside `rt`.
    let features = paths.features().into_iter().map(|feature| {
        let feature = format_ident!("{}", feature);
        quote!(rt::require_feature!(#feature);)
    });
    let file: TokenStream = quote! {
        #prelude
        #(#features)*
        #document
        #(#items)*
    };
    let text = match syn::parse2::<syn::File>(file.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        // A bug in the emitter: keep the tokens so the compiler names the problem.
        Err(_) => file.to_string(),
    };
    let mut out = String::new();
    out.push_str(&format!("// @generated {}\n", options.header));
    out.push_str(match options.runtime {
        Runtime::Crate => "// Do not edit by hand: fix the schema or the pipeline (`codegen/`).\n",
        Runtime::External => "// Do not edit by hand: change the schema and generate it again.\n",
    });
    for warning in &model.warnings {
        out.push_str(&format!("// warning: {warning}\n"));
    }
    out.push('\n');
    out.push_str(&space_items(&text));
    out
}

/// A blank line before each top-level item that starts a new type (after its impls), so that a
/// type and its impls read as one block.
fn space_items(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 20);
    let mut previous_blank = true;
    let mut in_doc_or_attr = false;
    for line in text.lines() {
        let starts_type = line.starts_with("pub struct ")
            || line.starts_with("pub enum ")
            || line.starts_with("pub type ");
        let starts_preamble = line.starts_with("///") || line.starts_with("#[");
        if (starts_preamble || starts_type) && !in_doc_or_attr && !previous_blank {
            out.push('\n');
        }
        in_doc_or_attr = starts_preamble;
        previous_blank = line.is_empty();
        out.push_str(line);
        out.push('\n');
    }
    out
}
