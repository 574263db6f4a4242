//! Doc comments: the schema's description, then one short line on presence and leniency.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Field, Leniency, Presence, Ty};

/// `#[doc = ...]` attributes for `text`, one per line (an empty text gives none).
pub fn doc(text: &str) -> TokenStream {
    let lines = text.lines().map(|line| {
        let line = if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        };
        quote!(#[doc = #line])
    });
    quote!(#(#lines)*)
}

/// The schema's description (when it has one), a blank line, then `note`.
pub fn with_note(description: Option<&str>, note: &str) -> TokenStream {
    let text = match description.map(str::trim).filter(|d| !d.is_empty()) {
        Some(d) if note.is_empty() => d.to_owned(),
        Some(d) => format!("{d}\n\n{note}"),
        None => note.to_owned(),
    };
    doc(&text)
}

/// The line on a member: its wire name, whether it may be absent or `null`, its leniency.
pub fn member_note(wire: &str, field: &Field) -> String {
    let any = matches!(field.ty.unbounded(), Ty::Value);
    let presence = match field.presence {
        Presence::Required if any => "required, any JSON value (`null` included)".to_owned(),
        Presence::Required => "required".to_owned(),
        Presence::RequiredNullable => "required, `null` is `None`".to_owned(),
        Presence::Optional if any => "optional: absent is `None` (a `null` is a value)".to_owned(),
        Presence::Optional => "optional: absent is `None`".to_owned(),
        Presence::OptionalNullable => {
            "optional: absent, `null` and a value are kept apart".to_owned()
        }
    };
    let mut note = format!("`{wire}`: {presence}");
    let Leniency {
        default_on_error,
        default_on_null,
        skip_invalid_items,
        null_as_absent,
    } = field.leniency;
    let mut lenient = Vec::new();
    if default_on_error {
        lenient.push("a malformed value decodes as absent");
    }
    if default_on_null || (null_as_absent && !any) {
        lenient.push("a `null` decodes as absent");
    }
    if skip_invalid_items {
        lenient.push("an invalid item is skipped");
    }
    if !lenient.is_empty() {
        note.push_str("; ");
        note.push_str(&lenient.join(", "));
        note.push_str(" (reported)");
    }
    note.push('.');
    note
}
