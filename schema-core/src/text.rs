//! JSON text as written: what a schema document or an instance becomes when embedded or compared
//! without its layout.

/// The JSON text `text` without the whitespace between tokens; strings and numbers stay exactly
/// as written (every digit, every escape). `text` is assumed to be JSON: anything else comes out
/// with its whitespace outside strings removed.
///
/// ```
/// assert_eq!(
///     toolcall_schema::text::minify("{ \"a b\": [1.50, 2e3] }"),
///     "{\"a b\":[1.50,2e3]}"
/// );
/// ```
#[must_use]
pub fn minify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::minify;

    #[test]
    fn whitespace_inside_strings_and_escaped_quotes_are_kept() {
        assert_eq!(
            minify("{\n  \"k\\\" \": \" a\\\\\" ,\t\"n\": -0.0 }"),
            "{\"k\\\" \":\" a\\\\\",\"n\":-0.0}"
        );
    }
}
