//! The optimistic pass through sonic-rs (feature `simd`): SIMD string scanning and UTF-8
//! checks, the same generated `Deserialize` impls.
//!
//! Taken only for inputs [`screen`](super::screen::screen) lets through, and only when
//! serde_json's `Value` decodes from sonic-rs as from serde_json in this build (not with
//! serde_json's `arbitrary_precision` feature, which keeps the text of each number).

use serde::de::DeserializeOwned;

use super::screen;

/// What the SIMD pass did with an input.
pub(super) enum Pass<T> {
    /// Not for sonic-rs: the serde_json optimistic pass runs instead.
    Skipped,
    /// sonic-rs decoded it, or refused it (`None`: the careful pass decides).
    Ran(Option<T>),
}

/// Runs the optimistic pass through sonic-rs when the input and the build allow it.
pub(super) fn optimistic<T: DeserializeOwned>(json: &[u8]) -> Pass<T> {
    if screen::screen(json).is_err() || !values_agree() {
        return Pass::Skipped;
    }
    Pass::Ran(sonic_rs::from_slice::<T>(json).ok())
}

/// Whether serde_json's `Value` decodes from sonic-rs exactly as from serde_json in this build.
/// Not with serde_json's `arbitrary_precision` feature (features unify: any crate in the build
/// can turn it on): a `Value` then keeps each number's text, which only serde_json's parser
/// hands over. Checked once.
fn values_agree() -> bool {
    static AGREE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AGREE.get_or_init(|| {
        let probe = br#"{"n":100,"i":-7,"s":"\u00e9\"","a":[true,null]}"#;
        let text = br#"{"n":1e2}"#;
        let same = |json: &[u8]| {
            matches!(
                (
                    sonic_rs::from_slice::<serde_json::Value>(json),
                    serde_json::from_slice::<serde_json::Value>(json),
                ),
                (Ok(simd), Ok(reference)) if simd == reference
                    && simd.to_string() == reference.to_string()
            )
        };
        same(probe) && same(text)
    })
}
