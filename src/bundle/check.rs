//! Checks a normalized file must pass to be published: it resolves without the network and
//! means the same to every consumer (Rust `jsonschema`, ajv, Python `jsonschema`).

use super::json::Node;
use super::walk;
use super::BundleError;

/// The formats a published schema may use: each is checked by `jsonschema` (with
/// `should_validate_formats(true)`), by ajv with ajv-formats and by Python `jsonschema` with
/// its `format-nongpl` extra, and the golden vectors show that they agree.
pub const PORTABLE_FORMATS: &[&str] = &["uri"];

/// Keywords that may appear only at a file's root.
const ROOT_ONLY: &[&str] = &["$id", "$schema"];

/// Keywords the bundle does not support (their resolution or meaning differs between
/// consumers, or they need a base other than the file's `$id`).
const UNSUPPORTED: &[&str] = &["$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$anchor"];

/// Checks every subschema of `root` (`file` is the bundle path, for errors).
pub(crate) fn file(file: &str, root: &Node) -> Result<(), BundleError> {
    walk::each(root, "", &mut |pointer, node| {
        let Node::Object(members) = node else {
            return Ok(());
        };
        for (keyword, value) in members {
            if !pointer.is_empty() && ROOT_ONLY.contains(&keyword.as_str()) {
                return Err(BundleError::Keyword {
                    file: file.to_owned(),
                    pointer: pointer.to_owned(),
                    keyword: keyword.clone(),
                });
            }
            if UNSUPPORTED.contains(&keyword.as_str()) {
                return Err(BundleError::Keyword {
                    file: file.to_owned(),
                    pointer: pointer.to_owned(),
                    keyword: keyword.clone(),
                });
            }
            match (keyword.as_str(), value) {
                ("format", Node::String(format))
                    if !PORTABLE_FORMATS.contains(&format.as_str()) =>
                {
                    return Err(BundleError::Format {
                        file: file.to_owned(),
                        pointer: pointer.to_owned(),
                        format: format.clone(),
                    });
                }
                ("pattern", Node::String(pattern)) => portable(file, pointer, pattern)?,
                ("patternProperties", Node::Object(entries)) => {
                    for (pattern, _) in entries {
                        portable(file, pointer, pattern)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    })
}

fn portable(file: &str, pointer: &str, pattern: &str) -> Result<(), BundleError> {
    match portable_pattern(pattern) {
        Ok(()) => Ok(()),
        Err(reason) => Err(BundleError::Pattern {
            file: file.to_owned(),
            pointer: pointer.to_owned(),
            pattern: pattern.to_owned(),
            reason,
        }),
    }
}

/// Whether `pattern` means the same to ECMAScript (ajv, `u` flag), Python `re` and Rust
/// (`jsonschema`'s translation): only literal characters, `\uXXXX`, `\xHH`, escaped syntax
/// characters, character classes of those, plain and `(?:` groups, quantifiers, `|`, `^` and `$`.
/// Refused, with the reason: `\d`, `\w`, `\s`, `\b` and their negations (Unicode-aware in some
/// engines and ASCII in others), `\p{..}` (Python `re` has none), lookaround, backreferences,
/// named groups and inline flags (different syntax or support), and `.` outside a class (it
/// excludes `\r`, U+2028 and U+2029 in ECMAScript only).
///
/// `$` is allowed although Python's also matches before a final `\n`: every `$` in our schemas
/// follows a class that excludes `\n`, so only Python `jsonschema` accepts a value ending in
/// one `\n`, a divergence the golden vectors assert (see `consumers/DIVERGENCES.md`).
///
/// # Errors
/// The reason, as a short phrase.
pub fn portable_pattern(pattern: &str) -> Result<(), &'static str> {
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(escaped) = chars.next() else {
                    return Err("it ends with a lone `\\`");
                };
                match escaped {
                    'u' => hex_digits(&mut chars, 4)?,
                    'x' => hex_digits(&mut chars, 2)?,
                    // Control escapes, then the syntax characters (and `/`) ECMAScript's `u`
                    // mode lets one escape.
                    'n' | 't' | 'r' | 'f' | 'v' | '\\' | '^' | '$' | '.' | '*' | '+' | '?'
                    | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '/' => {}
                    // ECMAScript's `u` mode allows `\-` in a class only.
                    '-' if in_class => {}
                    'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'b' | 'B' => {
                        return Err("`\\d`, `\\w`, `\\s` and `\\b` differ between engines")
                    }
                    'p' | 'P' => return Err("`\\p{..}` is not supported by Python `re`"),
                    '0'..='9' | 'k' => return Err("backreferences are not portable"),
                    _ => return Err("an escape that is not portable"),
                }
            }
            '[' if !in_class => {
                in_class = true;
                // A `]` right after `[` or `[^` is literal in Python and Rust, an empty class
                // in ECMAScript.
                if chars.peek() == Some(&'^') {
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    return Err("a `]` first in a class means different things");
                }
            }
            '[' if in_class => return Err("a `[` inside a class is a set operation in Rust"),
            ']' if in_class => in_class = false,
            '(' if !in_class && chars.peek() == Some(&'?') => {
                chars.next();
                if chars.next() != Some(':') {
                    return Err("lookaround, named groups and inline flags are not portable");
                }
            }
            '.' if !in_class => return Err("`.` outside a class excludes different characters"),
            _ => {}
        }
    }
    if in_class {
        return Err("a class is not closed");
    }
    Ok(())
}

fn hex_digits(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    count: usize,
) -> Result<(), &'static str> {
    for _ in 0..count {
        match chars.next() {
            Some(c) if c.is_ascii_hexdigit() => {}
            _ => return Err("a `\\u` or `\\x` escape without its hex digits"),
        }
    }
    Ok(())
}

/// The resource part (before `#`) and the JSON pointer (after `#`, decoded) of `reference`
/// resolved against `base`.
pub(crate) fn resolve(base: &str, reference: &str) -> Option<(String, String)> {
    let resolved = toolcall_schema::refs::resolve(base, reference)?;
    let (resource, pointer) = toolcall_schema::refs::split(&resolved)?;
    Some((resource.to_owned(), pointer))
}

/// Every `$ref` of `root` (published as `id`) must resolve to a subschema of a bundle file:
/// `lookup` finds a file by its `$id`.
pub(crate) fn refs<'a>(
    file: &str,
    id: &str,
    root: &Node,
    lookup: &dyn Fn(&str) -> Option<&'a Node>,
) -> Result<(), BundleError> {
    walk::each(root, "", &mut |pointer, node| {
        let Some(reference) = node.get("$ref") else {
            return Ok(());
        };
        let unresolved = || BundleError::Ref {
            file: file.to_owned(),
            pointer: pointer.to_owned(),
            reference: match reference {
                Node::String(text) => text.clone(),
                other => serde_json::to_string(other).unwrap_or_default(),
            },
        };
        let Node::String(text) = reference else {
            return Err(unresolved());
        };
        let (resource, target) = resolve(id, text).ok_or_else(unresolved)?;
        let document = if resource == id {
            root
        } else {
            lookup(&resource).ok_or_else(unresolved)?
        };
        if target.is_empty() || target.starts_with('/') {
            document.pointer(&target).map(|_| ()).ok_or_else(unresolved)
        } else {
            // A plain-name fragment would need `$anchor`, which the bundle refuses.
            Err(unresolved())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_patterns_are_portable() {
        for pattern in [
            "^[!-~]+$",
            "^[A-Za-z0-9_.-]+$",
            "^[^\\u0000-\\u001f\\u007f-\\u009f]+$",
            "^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}:(0|[1-9][0-9]{0,8})$",
            "^(?:a|b)\\.c$",
        ] {
            assert_eq!(portable_pattern(pattern), Ok(()), "{pattern}");
        }
    }

    #[test]
    fn unportable_patterns_are_refused_with_a_reason() {
        for (pattern, reason) in [
            (
                "^\\d+$",
                "`\\d`, `\\w`, `\\s` and `\\b` differ between engines",
            ),
            (
                "^\\w+$",
                "`\\d`, `\\w`, `\\s` and `\\b` differ between engines",
            ),
            ("^\\p{L}+$", "`\\p{..}` is not supported by Python `re`"),
            (
                "^a(?=b)",
                "lookaround, named groups and inline flags are not portable",
            ),
            (
                "^(?<n>a)$",
                "lookaround, named groups and inline flags are not portable",
            ),
            ("(a)\\1", "backreferences are not portable"),
            ("^a.b$", "`.` outside a class excludes different characters"),
            ("[]a]", "a `]` first in a class means different things"),
            ("[a-z", "a class is not closed"),
            ("\\u00g0", "a `\\u` or `\\x` escape without its hex digits"),
            ("\\e", "an escape that is not portable"),
            ("a\\-b", "an escape that is not portable"),
        ] {
            assert_eq!(portable_pattern(pattern), Err(reason), "{pattern}");
        }
    }

    #[test]
    fn resolves_relative_references() {
        let base = "https://example.test/v1/canonical/tool-spec.schema.json";
        assert_eq!(
            resolve(base, "ids.schema.json#/$defs/ToolId"),
            Some((
                "https://example.test/v1/canonical/ids.schema.json".to_owned(),
                "/$defs/ToolId".to_owned()
            ))
        );
        assert_eq!(
            resolve(base, "../route/r.json#/$defs/A%20B"),
            Some((
                "https://example.test/v1/route/r.json".to_owned(),
                "/$defs/A B".to_owned()
            ))
        );
        assert_eq!(resolve(base, "#"), Some((base.to_owned(), String::new())));
    }

    #[test]
    fn refs_must_land_in_the_bundle() {
        let id = "https://example.test/a.json";
        let other = Node::parse(r#"{"$defs": {"B": {}}}"#).unwrap();
        let lookup = |uri: &str| (uri == "https://example.test/b.json").then_some(&other);
        let good = Node::parse(r##"{"$defs": {"A": {}}, "anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "b.json#/$defs/B"}]}"##).unwrap();
        assert!(refs("a.json", id, &good, &lookup).is_ok());
        for (reference, pointer) in [
            ("#/$defs/Missing", "/anyOf/0"),
            ("b.json#/$defs/C", "/anyOf/0"),
            ("https://elsewhere.test/c.json", "/anyOf/0"),
            ("#name", "/anyOf/0"),
        ] {
            let text = format!(r#"{{"anyOf": [{{"$ref": "{reference}"}}]}}"#);
            let bad = Node::parse(&text).unwrap();
            let error = refs("a.json", id, &bad, &lookup).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("`a.json` has a `$ref` at `{pointer}` that does not resolve inside the bundle: `{reference}`")
            );
        }
    }

    #[test]
    fn formats_and_root_keywords_are_checked() {
        let node =
            Node::parse(r#"{"properties": {"a": {"type": "string", "format": "email"}}}"#).unwrap();
        assert_eq!(
            file("f.json", &node).unwrap_err().to_string(),
            "`f.json` uses the format `email` at `/properties/a`, which the bundle does not publish (allowed: uri)"
        );
        let node = Node::parse(r#"{"$defs": {"A": {"$id": "x.json"}}}"#).unwrap();
        assert_eq!(
            file("f.json", &node).unwrap_err().to_string(),
            "`f.json` has the keyword `$id` at `/$defs/A`, which the bundle does not support there"
        );
    }
}
