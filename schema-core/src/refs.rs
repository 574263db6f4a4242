//! `$ref` resolution: a reference resolved against the base URI of the schema resource it sits
//! in, by RFC 3986 (section 5.2, with the same implementation and normalization `jsonschema`
//! uses, so that a reference means one thing to the generated types, the checks, the schema
//! policy and the published bundle).

use fluent_uri::{Uri, UriRef};

/// `reference` resolved against `base` (an absolute URI; a fragment of `base` takes no part, as
/// RFC 3986 says and as drafts 4 to 7 let `$id`s carry one), normalized. `None` when `base` is
/// not an absolute URI or `reference` not a URI reference.
///
/// ```
/// use toolcall_schema::refs::resolve;
/// let base = "https://example.com/schemas/order.json";
/// assert_eq!(resolve(base, "item.json").as_deref(), Some("https://example.com/schemas/item.json"));
/// assert_eq!(resolve(base, "../common.json#/$defs/id").as_deref(),
///            Some("https://example.com/common.json#/$defs/id"));
/// assert_eq!(resolve(base, "#/$defs/x").as_deref(), Some("https://example.com/schemas/order.json#/$defs/x"));
/// ```
#[must_use]
pub fn resolve(base: &str, reference: &str) -> Option<String> {
    let base = Uri::parse(base).ok()?;
    let base = if base.has_fragment() {
        base.strip_fragment()
    } else {
        base
    };
    let resolved = UriRef::parse(reference).ok()?.resolve_against(&base).ok()?;
    Some(resolved.normalize().as_str().to_owned())
}

/// The resource (before `#`) and the JSON pointer (the fragment, percent-decoded; `""` for
/// none) of a resolved reference. `None` when the fragment holds a malformed escape.
#[must_use]
pub fn split(resolved: &str) -> Option<(&str, String)> {
    let (resource, fragment) = resolved.split_once('#').unwrap_or((resolved, ""));
    Some((resource, crate::pointer::from_fragment(fragment)?))
}

/// The bytes a URI path segment writes as they are (RFC 3986 `pchar`: unreserved, sub-delims,
/// `:` and `@`); every other byte is percent-encoded.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=')
    .remove(b':')
    .remove(b'@');

/// A file or folder name as one segment of a URI path, percent-encoded where RFC 3986 needs it
/// (`my schema.json` is `my%20schema.json`, `100%.json` is `100%25.json`).
///
/// ```
/// use toolcall_schema::refs::{decode_path, path_segment};
/// assert_eq!(path_segment("my schema#1.json"), "my%20schema%231.json");
/// assert_eq!(decode_path("a/my%20schema%231.json").as_deref(), Some("a/my schema#1.json"));
/// ```
#[must_use]
pub fn path_segment(name: &str) -> String {
    percent_encoding::utf8_percent_encode(name, SEGMENT).to_string()
}

/// A URI path percent-decoded, the file path it names (`None` when the bytes it decodes to
/// are not UTF-8).
#[must_use]
pub fn decode_path(path: &str) -> Option<String> {
    percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()
        .map(std::borrow::Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_become_path_segments_and_back() {
        for name in [
            "plain.json",
            "my schema.json",
            "100%.json",
            "q#1.json",
            "ünï?.json",
        ] {
            let segment = path_segment(name);
            assert!(!segment.contains([' ', '#', '?']), "{segment}");
            assert_eq!(decode_path(&segment).as_deref(), Some(name));
            let base = format!("json-schema:///{segment}");
            assert!(resolve(&base, "other.json").is_some(), "{base}");
        }
    }

    #[test]
    fn relative_references_by_rfc_3986() {
        let base = "https://example.com/a/b/c.json";
        for (reference, expected) in [
            ("d.json", "https://example.com/a/b/d.json"),
            ("./d.json", "https://example.com/a/b/d.json"),
            ("../d.json", "https://example.com/a/d.json"),
            ("/d.json", "https://example.com/d.json"),
            ("//other.org/x.json", "https://other.org/x.json"),
            ("urn:uuid:deadbeef-1234", "urn:uuid:deadbeef-1234"),
            ("", "https://example.com/a/b/c.json"),
            ("#foo", "https://example.com/a/b/c.json#foo"),
            (
                "d.json#/$defs/%7Bx%7D",
                "https://example.com/a/b/d.json#/$defs/%7Bx%7D",
            ),
        ] {
            assert_eq!(
                resolve(base, reference).as_deref(),
                Some(expected),
                "{reference}"
            );
        }
        // A fragment of the base (draft-07 `$id`s may have one) takes no part.
        assert_eq!(
            resolve("https://example.com/a.json#", "b.json").as_deref(),
            Some("https://example.com/b.json")
        );
        assert_eq!(
            resolve("json-schema:///schema.json", "#/$defs/a").as_deref(),
            Some("json-schema:///schema.json#/$defs/a")
        );
    }

    #[test]
    fn what_cannot_be_resolved_is_none() {
        assert_eq!(resolve("relative/base.json", "a.json"), None);
        assert_eq!(resolve("https://example.com/", "a b.json"), None);
        assert_eq!(resolve("https://example.com/", "%zz"), None);
    }

    #[test]
    fn split_decodes_the_fragment() {
        assert_eq!(
            split("https://example.com/a.json#/$defs/Big%20Dog"),
            Some(("https://example.com/a.json", "/$defs/Big Dog".to_owned()))
        );
        assert_eq!(split("urn:x"), Some(("urn:x", String::new())));
        assert_eq!(split("urn:x#/%zz"), None);
    }
}
