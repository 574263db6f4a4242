//! JSON Pointers (RFC 6901): the one place the toolcall crates escape, unescape and order them.
//!
//! Every pointer the crates report (a decode error, a leniency event, a traffic verdict, a schema
//! refusal, a schema change) is built here: `/params/update/content/0/type`, with `~` written
//! `~0` and `/` written `~1` inside a member name. The codegen pipeline and the library both use
//! this module, so generated code and the library agree on every pointer.
//!
//! ```
//! use toolcall_schema::pointer;
//!
//! let mut at = String::from("/params");
//! pointer::push(&mut at, "io.x/y");
//! assert_eq!(at, "/params/io.x~1y");
//! assert_eq!(pointer::tokens(&at).collect::<Vec<_>>(), ["params", "io.x/y"]);
//! ```

use std::borrow::Cow;
use std::cmp::Ordering;

/// Escapes one reference token: `~` becomes `~0`, `/` becomes `~1` (`a/b~c` is `a~1b~0c`).
#[must_use]
pub fn escape(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// Unescapes one reference token: `~1` becomes `/`, then `~0` becomes `~` (`a~1b~0c` is
/// `a/b~c`).
#[must_use]
pub fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// Appends `/token` (escaped) to `pointer` (`/params` and `io.x/y` give `/params/io.x~1y`).
pub fn push(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&escape(token));
}

/// `pointer` followed by `/token` (escaped).
#[must_use]
pub fn join(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    push(&mut out, token);
    out
}

/// The unescaped reference tokens of `pointer` (none for the root pointer `""`; `/a~1b/0` gives
/// `a/b` and `0`).
pub fn tokens(pointer: &str) -> impl Iterator<Item = Cow<'_, str>> {
    pointer.split('/').skip(1).map(unescape)
}

/// Orders pointers token by token, a parent before its children, array indices (all-digit
/// tokens, of any length) numerically, so that `/items/2` comes before `/items/10`.
#[must_use]
pub fn compare(a: &str, b: &str) -> Ordering {
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut left = a.split('/');
    let mut right = b.split('/');
    loop {
        match (left.next(), right.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let order = if numeric(x) && numeric(y) {
                    x.len().cmp(&y.len()).then_with(|| x.cmp(y))
                } else {
                    x.cmp(y)
                };
                if order.is_ne() {
                    return order;
                }
            }
        }
    }
}

/// The JSON pointer a `$ref`'s URI fragment holds, percent-decoded (`/$defs/Big%20Dog` is
/// `/$defs/Big Dog`); `None` when an escape is malformed or the result is not UTF-8 (feature
/// `refs`).
#[cfg(feature = "refs")]
#[must_use]
pub fn from_fragment(fragment: &str) -> Option<String> {
    if fragment.as_bytes().iter().enumerate().any(|(i, &b)| {
        b == b'%'
            && !fragment
                .get(i + 1..i + 3)
                .is_some_and(|hex| hex.bytes().all(|h| h.is_ascii_hexdigit()))
    }) {
        return None;
    }
    percent_encoding::percent_decode_str(fragment)
        .decode_utf8()
        .ok()
        .map(std::borrow::Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_and_unescape_are_inverse_and_ordered_as_the_rfc_says() {
        // `~01` is the escaped form of `~1`, not of `/`: unescaping `~1` first gets it right.
        assert_eq!(escape("~1"), "~01");
        assert_eq!(unescape("~01"), "~1");
        for token in ["", "plain", "a/b", "~", "~/~1/~0"] {
            assert_eq!(unescape(&escape(token)), token);
        }
    }

    #[test]
    fn push_join_and_tokens() {
        let mut pointer = String::from("/params");
        push(&mut pointer, "io.x/y");
        assert_eq!(pointer, "/params/io.x~1y");
        assert_eq!(join("", "a~b"), "/a~0b");
        let all: Vec<_> = tokens("/a~1b/0").collect();
        assert_eq!(all, ["a/b", "0"]);
        assert_eq!(tokens("").count(), 0);
    }

    #[cfg(feature = "refs")]
    #[test]
    fn fragments_are_percent_decoded_and_malformed_escapes_refused() {
        assert_eq!(
            from_fragment("/$defs/Big%20Dog").as_deref(),
            Some("/$defs/Big Dog")
        );
        assert_eq!(from_fragment("/a~1b").as_deref(), Some("/a~1b"));
        assert_eq!(from_fragment("/%C3%A9").as_deref(), Some("/é"));
        assert_eq!(from_fragment("/%zz"), None);
        assert_eq!(from_fragment("/%2"), None);
        assert_eq!(from_fragment("/%FF"), None);
    }

    #[test]
    fn compare_orders_indices_numerically() {
        let mut pointers = vec!["/a/10", "/a/2", "/a", "/b", "/a/2/x"];
        pointers.sort_by(|a, b| compare(a, b));
        assert_eq!(pointers, ["/a", "/a/2", "/a/2/x", "/a/10", "/b"]);
        // Indices past `u64` stay numeric; tokens that differ never compare equal.
        assert_eq!(
            compare("/99999999999999999999", "/100000000000000000000"),
            Ordering::Less
        );
        assert_eq!(compare("/1", "/01"), Ordering::Less);
    }
}
