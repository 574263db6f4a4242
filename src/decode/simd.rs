//! The optimistic pass through sonic-rs (feature `simd`): SIMD string scanning and UTF-8
//! checks, the same generated `Deserialize` impls, and a [`Guard`] between the two.
//!
//! sonic-rs may decode an input only where it accepts and refuses what serde_json does and hands
//! the generated impls the same values. A refusal by sonic-rs costs nothing in correctness (the
//! careful pass, always serde_json, decides), so one direction matters: sonic-rs accepting an
//! input, or reading another value, where serde_json would not. The differences found (a
//! differential probe of the two parsers, then the `decode_simd_differential` fuzz target;
//! regression tests in `tests/regression/simd_parser_differences.rs`), and how each is closed:
//!
//! | input | serde_json | sonic-rs | closed by |
//! |---|---|---|---|
//! | nesting of 129 to 255 levels | refuses (`recursion limit exceeded`) | accepts | the guard: past 64 levels (16 in a debug build) the serde_json pass decides |
//! | an externally tagged enum (`visit_enum`, hand-written types only) | | | not guarded: the guard trips |
//! | nesting below 128 levels | about 0.4 KiB of stack a level (2.3 KiB in a debug build) | about 0.7 KiB (20 KiB in a debug build: 100 levels overflow a 2 MiB thread) | the same |
//! | `-0`, `-0.0` | `-0.0` | `0.0` | the guard: any number read as a float |
//! | a fraction or an exponent | correctly rounded only with serde_json's `float_roundtrip` feature | correctly rounded | the same |
//! | an integer above `u64::MAX` or below `i64::MIN` (read as an `f64`) | as above | as above | the same |
//! | invalid UTF-8 in a skipped member (`IgnoredAny`) | accepts | refuses | the input is checked first (`simdutf8`); invalid input takes the serde_json path |
//! | a lone surrogate escape (`\uD800`) in a skipped member | accepts | refuses | a refusal: the careful pass decides |
//! | a skipped member nested 200 levels or more | accepts (its skipping is not recursive) | skips recursively on the stack | skipped values are walked through the guard, which counts their depth |
//! | serde_json's `arbitrary_precision` feature on in the build (a `Value` keeps each number's text) | the text | the number | checked once at run time (`values_agree`): the serde_json path |
//! | input over 4 GiB | parses | refuses | the serde_json path |
//!
//! No difference was found in: integers up to `u64::MAX` and down to `i64::MIN`, `1e400` (both
//! refuse), `1.0` into an integer member (both refuse: a float), invalid UTF-8 in a decoded
//! string (both refuse), surrogate escapes in a decoded string (both refuse a lone one and
//! decode a pair alike), control characters in strings (both refuse), duplicate members (the
//! generated impls refuse them with either parser; a `Value` keeps the last with either),
//! trailing data, a BOM, whitespace other than JSON's four and trailing commas (both refuse).

use serde::de::DeserializeOwned;

use super::guard::{Guard, Watch};

/// What the SIMD pass did with an input.
pub(super) enum Pass<T> {
    /// Not for sonic-rs, or the guard tripped: the serde_json optimistic pass runs instead.
    Skipped,
    /// sonic-rs decoded it, or refused it (`None`: the careful pass
    /// decides).
    Ran(Option<T>),
}

/// Runs the optimistic pass through sonic-rs when the input and the build allow it.
pub(super) fn optimistic<T: DeserializeOwned>(json: &[u8]) -> Pass<T> {
    if u32::try_from(json.len()).is_err() || !values_agree() {
        return Pass::Skipped;
    }
    // sonic-rs checks UTF-8 for the whole input; serde_json only in the strings it decodes
    // (not in skipped ones). Checked here, with SIMD, so that sonic-rs reads a `str`.
    let Ok(text) = simdutf8::basic::from_utf8(json) else {
        return Pass::Skipped;
    };
    let watch = Watch::default();
    let mut de = sonic_rs::Deserializer::from_str(text);
    let value = T::deserialize(Guard::new(&mut de, &watch)).and_then(|value| {
        de.end()?;
        Ok(value)
    });
    // A tripped guard says nothing of the input (a float, a deep value): serde_json reads it in
    // its own one pass, as without the feature (before: the careful pass, which also tracks the
    // path of every member).
    if watch.tripped() {
        return Pass::Skipped;
    }
    Pass::Ran(value.ok())
}

/// Whether serde_json's `Value` decodes from sonic-rs exactly as from serde_json in this build.
/// Not with serde_json's `arbitrary_precision` feature (features unify: any crate in the build
/// can turn it on): a `Value` then keeps each number's text (`1.50`), which only serde_json's
/// parser hands over. Checked once.
fn values_agree() -> bool {
    static AGREE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AGREE.get_or_init(|| {
        let probe = r#"{"n":100,"i":-7,"s":"\u00e9\"","a":[true,null],"o":{}}"#;
        let watch = Watch::default();
        let mut de = sonic_rs::Deserializer::from_str(probe);
        let simd = serde::Deserialize::deserialize(Guard::new(&mut de, &watch));
        let text_kept = serde_json::from_str::<serde_json::Value>("1.50")
            .and_then(|number| serde_json::to_string(&number))
            .is_ok_and(|text| text == "1.50");
        !text_kept
            && matches!(
                (simd, serde_json::from_str::<serde_json::Value>(probe)),
                (Ok::<serde_json::Value, _>(simd), Ok(reference)) if simd == reference
                    && serde_json::to_vec(&simd).ok() == serde_json::to_vec(&reference).ok()
            )
    })
}
