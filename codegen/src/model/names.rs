//! Rust names for schema names: types keep a definition's name when it is already a Rust
//! identifier (`JSONRPCRequest` stays `JSONRPCRequest`), fields are snake_case of the wire name,
//! variants are PascalCase of a tag or enum value; values made of symbols are spelled out
//! (`==` is `EqEq`, `!=` is `NotEq`), and values that collide once made identifiers (`a-b`,
//! `a_b`) keep their separators spelled out (`AMinusB`, `AUnderscoreB`).

use std::collections::BTreeSet;

/// Rust keywords (strict and reserved), which a field name cannot be as is.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Type names that cannot be used at all (`Self`, and names the prelude of generated code
/// needs are handled by the emitter's paths, not here).
const RESERVED_TYPES: &[&str] = &["Self", "crate", "self", "super"];

/// Whether `name` is a Rust identifier that is not a keyword.
#[must_use]
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
        && !KEYWORDS.contains(&name)
        && !RESERVED_TYPES.contains(&name)
}

/// The words of `text`: runs of ASCII letters and digits, split at other characters and at
/// lower-to-upper case changes (`toolCallId` is `tool`, `Call`, `Id`).
fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && previous_lower && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            current.push(c);
        } else {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            previous_lower = false;
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// A word for one symbol character.
fn spell(c: char) -> String {
    let word = match c {
        '=' => "Eq",
        '!' => "Not",
        '<' => "Lt",
        '>' => "Gt",
        '+' => "Plus",
        '-' => "Minus",
        '*' => "Star",
        '/' => "Slash",
        '\\' => "Backslash",
        '.' => "Dot",
        '_' => "Underscore",
        ' ' => "Space",
        '~' => "Tilde",
        '@' => "At",
        '#' => "Hash",
        '$' => "Dollar",
        '%' => "Percent",
        '&' => "And",
        '|' => "Or",
        '^' => "Caret",
        '?' => "Question",
        ':' => "Colon",
        ',' => "Comma",
        ';' => "Semicolon",
        '(' => "LParen",
        ')' => "RParen",
        '[' => "LBracket",
        ']' => "RBracket",
        '{' => "LBrace",
        '}' => "RBrace",
        '"' => "Quote",
        '\'' => "Apostrophe",
        '`' => "Backtick",
        other => return format!("U{:04X}", u32::from(other)),
    };
    word.to_owned()
}

/// PascalCase of `text` (`user_message_chunk` is `UserMessageChunk`, `tools/call` is
/// `ToolsCall`); text without letters or digits is spelled out (`==` is `EqEq`); a leading
/// digit gets a `V` (`2024-11-05` is `V20241105`); the empty string is `Empty`.
#[must_use]
pub fn pascal(text: &str) -> String {
    let words = words(text);
    let name: String = if words.is_empty() {
        text.chars().map(spell).collect()
    } else {
        words.iter().map(|w| capitalize(w)).collect()
    };
    finish_type(name)
}

/// PascalCase with every character that is not a letter or digit spelled out (`a-b` is
/// `AMinusB`): the form used when two values collide.
#[must_use]
pub fn pascal_spelled(text: &str) -> String {
    let mut name = String::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            name.push_str(&capitalize(&std::mem::take(&mut word)));
            name.push_str(&spell(c));
        }
    }
    name.push_str(&capitalize(&word));
    finish_type(name)
}

fn finish_type(name: String) -> String {
    if name.is_empty() {
        "Empty".to_owned()
    } else if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{name}")
    } else if is_identifier(&name) {
        name
    } else {
        format!("{name}_")
    }
}

/// The Rust type name of a definition: its own name when that is already an identifier,
/// PascalCase of it otherwise.
#[must_use]
pub fn type_name(definition: &str) -> String {
    if is_identifier(definition) && definition.starts_with(|c: char| c.is_ascii_uppercase()) {
        definition.to_owned()
    } else {
        pascal(definition)
    }
}

/// The Rust field name of a member: snake_case of its wire name (`toolCallId` is
/// `tool_call_id`, `_meta` is `meta`), `_` appended to a keyword (`type_`).
#[must_use]
pub fn field_name(wire: &str) -> String {
    let name = words(wire)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_");
    if name.is_empty() {
        if wire.is_empty() {
            // The member `""`.
            return "empty".to_owned();
        }
        let spelled: String = wire.chars().map(spell).collect::<String>();
        return field_name(&spelled).replace("empty", "empty_name");
    }
    let name = if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("n{name}")
    } else {
        name
    };
    if KEYWORDS.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}

/// Names for a list of values (enum values, tag values): [`pascal`] each; values whose names
/// collide get [`pascal_spelled`]; names still equal get `2`, `3`... in order.
#[must_use]
pub fn unique_variant_names(values: &[String]) -> Vec<String> {
    let simple: Vec<String> = values.iter().map(|v| pascal(v)).collect();
    let mut names: Vec<String> = simple
        .iter()
        .zip(values)
        .map(|(name, value)| {
            if simple.iter().filter(|n| *n == name).count() > 1 {
                pascal_spelled(value)
            } else {
                name.clone()
            }
        })
        .collect();
    dedupe(&mut names);
    names
}

/// Makes names unique in order: the second `X` becomes `X2`, the third `X3`.
pub fn dedupe(names: &mut [String]) {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for name in names.iter_mut() {
        if !taken.insert(name.clone()) {
            let base = name.clone();
            let mut n = 2;
            while taken.contains(&format!("{base}{n}")) {
                n += 1;
            }
            *name = format!("{base}{n}");
            taken.insert(name.clone());
        }
    }
}

/// Makes field names unique in order: the second `meta` becomes `meta_2`, the second `type_`
/// `type_2`.
pub fn dedupe_fields(names: &mut [String]) {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for name in names.iter_mut() {
        if !taken.insert(name.clone()) {
            let base = name.clone();
            let separator = if base.ends_with('_') { "" } else { "_" };
            let mut n = 2;
            while taken.contains(&format!("{base}{separator}{n}")) {
                n += 1;
            }
            *name = format!("{base}{separator}{n}");
            taken.insert(name.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_member_name_is_a_field_too() {
        assert_eq!(field_name(""), "empty");
        assert_eq!(field_name("=="), "eq_eq");
    }

    #[test]
    fn fields_are_snake_case_of_the_wire_name() {
        assert_eq!(field_name("toolCallId"), "tool_call_id");
        assert_eq!(field_name("_meta"), "meta");
        assert_eq!(field_name("type"), "type_");
        assert_eq!(
            field_name("io.modelcontextprotocol/clientInfo"),
            "io_modelcontextprotocol_client_info"
        );
        assert_eq!(field_name("$schema"), "schema");
        assert_eq!(field_name("2fa"), "n2fa");
        assert_eq!(field_name("URL"), "url");
        assert_eq!(field_name("isError"), "is_error");
    }

    #[test]
    fn values_become_pascal_case_and_symbols_are_spelled() {
        assert_eq!(pascal("user_message_chunk"), "UserMessageChunk");
        assert_eq!(pascal("tools/call"), "ToolsCall");
        assert_eq!(pascal("=="), "EqEq");
        assert_eq!(pascal("!="), "NotEq");
        assert_eq!(pascal("<"), "Lt");
        assert_eq!(pascal(""), "Empty");
        assert_eq!(pascal("2024-11-05"), "V20241105");
        assert_eq!(pascal("Self"), "Self_");
    }

    #[test]
    fn colliding_values_keep_their_separators() {
        let values = ["a-b", "a_b", "ab", "AB"].map(str::to_owned);
        assert_eq!(
            unique_variant_names(&values),
            ["AMinusB", "AUnderscoreB", "Ab", "AB"]
        );
        let same = ["x", "X"].map(str::to_owned);
        assert_eq!(unique_variant_names(&same), ["X", "X2"]);
    }

    #[test]
    fn definitions_keep_their_name_when_it_is_an_identifier() {
        assert_eq!(type_name("JSONRPCRequest"), "JSONRPCRequest");
        assert_eq!(
            type_name("ElicitRequestURLParams"),
            "ElicitRequestURLParams"
        );
        assert_eq!(type_name("tool-spec"), "ToolSpec");
        assert_eq!(type_name("lower"), "Lower");
    }
}
