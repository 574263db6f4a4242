//! Which inputs the SIMD parser may take (feature `simd`): a pre-check in one pass over the
//! bytes that sends every input on which sonic-rs and serde_json could disagree to the
//! serde_json path.
//!
//! [`crate::decode()`]'s optimistic pass may use sonic-rs only where it is known to accept and
//! refuse what serde_json does and to hand the generated `Deserialize` impls the same values.
//! A refusal by sonic-rs costs nothing in correctness (the careful pass, always serde_json,
//! decides), so only one direction matters: sonic-rs accepting an input, or giving another
//! value, where serde_json would not. The differences found (a differential probe, then the
//! `decode_simd_differential` fuzz target), and how each is closed:
//!
//! | input | serde_json | sonic-rs | closed by |
//! |---|---|---|---|
//! | nesting of 129 to 255 levels (also inside skipped members) | refuses (`recursion limit exceeded`) | accepts | [`Detour::Deep`] (past 64 levels, 16 in a debug build) |
//! | deep nesting below 128 levels | about 0.4 KiB of stack a level (2.3 KiB in a debug build) | about 0.7 KiB (20 KiB in a debug build: 100 levels overflow a 2 MiB thread) | [`Detour::Deep`] |
//! | `-0`, `-0.0`, `-0e3` | `-0.0` | `0.0` | [`Detour::Number`]: a negative number whose first digit is `0` |
//! | a number with a fraction or an exponent | correctly rounded only with its `float_roundtrip` feature | correctly rounded | [`Detour::Number`] |
//! | an integer above `u64::MAX` or below `i64::MIN` (it becomes an `f64`) | the `f64` as above | correctly rounded | [`Detour::Number`] |
//! | a `\uD800` to `\uDFFF` escape (a surrogate, paired or lone) | refuses a lone one in a string it decodes, accepts it in a skipped one | refuses a lone one everywhere | [`Detour::Surrogate`] (no difference found for pairs; sent to serde_json as the issue asks) |
//! | input over 4 GiB | parses | refuses | [`Detour::Large`] |
//!
//! No difference was found in: integers up to 19 digits and `u64::MAX`, `1e400` (both refuse),
//! `1.0` into an integer member (both refuse), invalid UTF-8 (both refuse; sonic-rs also in a
//! skipped member, where serde_json accepts it: a refusal, so harmless), control characters in
//! strings (both refuse), duplicate members (the generated impls refuse them with either
//! parser; a `Value` keeps the last with either), trailing data, a BOM and whitespace other than
//! JSON's four (both refuse), and trailing commas (both refuse).

/// Why an input goes to serde_json instead of sonic-rs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detour {
    /// Nested deeper than [`MAX_DEPTH`]: past serde_json's 128 levels sonic-rs would accept
    /// (it takes 255), and below that it would need more stack than serde_json.
    Deep,
    /// A number sonic-rs may decode to another value: negative zero, a fraction or an exponent,
    /// an integer outside `i64::MIN..=u64::MAX`.
    Number,
    /// A `\u` escape of a UTF-16 surrogate.
    Surrogate,
    /// Over sonic-rs's 4 GiB.
    Large,
}

/// The deepest nesting sent to sonic-rs: where its stack use stays within serde_json's at
/// serde_json's own limit of 128 levels. sonic-rs's frames are larger (measured with
/// `ToolCallLocation` and a nested `_meta`, least stack for a decode to succeed: release, 64
/// levels 47 KiB against serde_json's 55 KiB at 120; a debug build, 16 levels 315 KiB against
/// serde_json's 295 KiB at 120, 20 KiB a level where serde_json takes 2.3 KiB), so deeper
/// input is decoded by serde_json, which refuses past 128 as before.
const MAX_DEPTH: usize = if cfg!(debug_assertions) { 16 } else { 64 };

/// The largest integer both parsers decode as a `u64`; above it, an `f64`.
const U64_MAX: &[u8] = b"18446744073709551615";
/// The digits of the most negative integer both parsers decode as an `i64`.
const I64_MIN_DIGITS: &[u8] = b"9223372036854775808";

/// `Ok` when sonic-rs may parse `json` in the optimistic pass, else why not. Linear in the
/// length, constant memory; the input need not be JSON (what is not JSON is refused by either
/// parser, whatever this says).
pub(crate) fn screen(json: &[u8]) -> Result<(), Detour> {
    if u32::try_from(json.len()).is_err() {
        return Err(Detour::Large);
    }
    let mut depth = 0usize;
    let mut at = 0usize;
    while let Some(&byte) = json.get(at) {
        match byte {
            b'"' => at = skip_string(json, at + 1)?,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(Detour::Deep);
                }
                at += 1;
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                at += 1;
            }
            b'-' | b'0'..=b'9' => at = number(json, at)?,
            _ => at += 1,
        }
    }
    Ok(())
}

/// From just after an opening quote, the offset after the closing one (or the end of an
/// unterminated string).
fn skip_string(json: &[u8], mut at: usize) -> Result<usize, Detour> {
    loop {
        let Some(found) = json
            .get(at..)
            .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
        else {
            return Ok(json.len());
        };
        at += found;
        if json[at] == b'"' {
            return Ok(at + 1);
        }
        if json.get(at + 1) == Some(&b'u') && is_surrogate(json.get(at + 2..at + 4)) {
            return Err(Detour::Surrogate);
        }
        at += 2;
    }
}

/// Whether the first two hex digits of a `\u` escape put it in `D800` to `DFFF`.
fn is_surrogate(digits: Option<&[u8]>) -> bool {
    matches!(
        digits,
        Some([b'd' | b'D', b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F'])
    )
}

/// From the first byte of a number, the offset after it, or [`Detour::Number`] when sonic-rs may
/// decode it to another value than serde_json.
fn number(json: &[u8], start: usize) -> Result<usize, Detour> {
    let negative = json[start] == b'-';
    let digits_start = start + usize::from(negative);
    let mut at = digits_start;
    while json.get(at).is_some_and(u8::is_ascii_digit) {
        at += 1;
    }
    let digits = &json[digits_start..at];
    if negative && digits.first() == Some(&b'0') {
        return Err(Detour::Number);
    }
    let widest = if negative { I64_MIN_DIGITS } else { U64_MAX };
    if matches!(json.get(at), Some(b'.' | b'e' | b'E')) || above(digits, widest) {
        return Err(Detour::Number);
    }
    // A lone `-` (not JSON: both refuse) still moves on.
    Ok(at.max(start + 1))
}

/// Whether the integer `digits` (no sign, no leading zero) is above `widest`.
fn above(digits: &[u8], widest: &[u8]) -> bool {
    digits.len() > widest.len() || (digits.len() == widest.len() && digits > widest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_json_is_taken() {
        for json in [
            &br#"{"a":[1,-2,"x\"y\\z\n",true,null,{}],"b":18446744073709551615}"#[..],
            br#""\u00e9\u0000\uc000""#,
            b"",
            b"-",
            br#"["unterminated"#,
            b"[-9223372036854775808, 10000000000000000000]",
        ] {
            assert_eq!(screen(json), Ok(()), "{}", String::from_utf8_lossy(json));
        }
    }

    #[test]
    fn numbers_that_may_differ_detour() {
        for json in [
            &b"-0"[..],
            b"[-0.0]",
            b"{\"a\":-0e3}",
            b"1.5",
            b"1e2",
            b"[2E-3]",
            b"18446744073709551616",
            b"-9223372036854775809",
            b"123456789012345678901",
        ] {
            assert_eq!(
                screen(json),
                Err(Detour::Number),
                "{}",
                String::from_utf8_lossy(json)
            );
        }
        // Digits inside strings are text.
        assert_eq!(screen(br#"["-0", "1.5", "12345678901234567890"]"#), Ok(()));
    }

    #[test]
    fn surrogate_escapes_detour() {
        for json in [
            &br#""\ud800""#[..],
            br#""\uDFFF""#,
            br#"{"k\ud83d\ude00":1}"#,
            br#"["x", "\uDbff"]"#,
        ] {
            assert_eq!(screen(json), Err(Detour::Surrogate));
        }
        // An escaped backslash before `ud800` is text, not an escape.
        assert_eq!(screen(br#""\\ud800""#), Ok(()));
        assert_eq!(screen(br#""\ud7ff\ue000""#), Ok(()));
    }

    #[test]
    fn depth_past_the_cap_detours() {
        let at = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert_eq!(screen(at(MAX_DEPTH).as_bytes()), Ok(()));
        assert_eq!(screen(at(MAX_DEPTH + 1).as_bytes()), Err(Detour::Deep));
        assert_eq!(screen(at(129).as_bytes()), Err(Detour::Deep));
        let inside_strings = format!("[\"{}\"]", "[".repeat(300));
        assert_eq!(screen(inside_strings.as_bytes()), Ok(()));
    }
}
