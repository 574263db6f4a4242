//! The `simd` path of `toolcall_contracts::decode` (`__private::decode_simd`: sonic-rs at every
//! input size, where `decode` takes it from 1 KiB) against the serde_json path
//! (`__private::decode_serde_json`, what a build without `simd` runs), on the same bytes, for
//! `acp::SessionNotification`, `acp::ToolCallUpdate`, `acp::RequestPermissionRequest` and
//! `route::ToolCallRequest`, each within `DECODE_LIMITS` and within `DecodeLimits::default()`:
//!
//! 1. both accept or both refuse;
//! 2. when both accept, the values are equal and re-encode (serde_json) to the same bytes (so
//!    `-0.0` against `0.0` is caught, which `==` on numbers is not), and the reports are equal,
//!    their raw values re-encoding to the same bytes too;
//! 3. when both refuse, the errors are equal (message, pointer, line, column, limit).
//!
//! Without the `simd` feature both sides are serde_json and agree by construction (the replay
//! test still runs them); the fuzz crate turns `simd` on.

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;
use toolcall_contracts::__private::{decode_serde_json, decode_simd};
use toolcall_contracts::acp::{RequestPermissionRequest, SessionNotification, ToolCallUpdate};
use toolcall_contracts::policy::DecodeLimits;
use toolcall_contracts::route::ToolCallRequest;
use toolcall_contracts::DECODE_LIMITS;

/// Decodes `data` as each of the four types through both paths.
pub fn run(data: &[u8]) {
    for limits in [DECODE_LIMITS, DecodeLimits::default()] {
        agree::<SessionNotification>(data, &limits);
        agree::<ToolCallUpdate>(data, &limits);
        agree::<RequestPermissionRequest>(data, &limits);
        agree::<ToolCallRequest>(data, &limits);
    }
}

fn agree<T>(data: &[u8], limits: &DecodeLimits)
where
    T: DeserializeOwned + Serialize + PartialEq + Debug,
{
    let name = std::any::type_name::<T>();
    match (
        decode_simd::<T>(data, limits),
        decode_serde_json::<T>(data, limits),
    ) {
        (Ok(fast), Ok(reference)) => {
            assert_eq!(fast.value, reference.value, "{name}: values differ");
            assert_eq!(
                encoded(&fast.value),
                encoded(&reference.value),
                "{name}: re-encodings differ"
            );
            assert_eq!(fast.report, reference.report, "{name}: reports differ");
            let raw = |report: &[toolcall_contracts::Leniency]| -> Vec<Vec<u8>> {
                report.iter().map(|l| encoded(&l.raw)).collect()
            };
            assert_eq!(
                raw(&fast.report),
                raw(&reference.report),
                "{name}: report values re-encode differently"
            );
        }
        (Err(fast), Err(reference)) => assert_eq!(fast, reference, "{name}: errors differ"),
        (Ok(fast), Err(reference)) => panic!(
            "{name}: the simd path accepts ({:?}) what the serde_json path refuses: {reference}",
            fast.value
        ),
        (Err(fast), Ok(reference)) => panic!(
            "{name}: the simd path refuses ({fast}) what the serde_json path accepts: {:?}",
            reference.value
        ),
    }
}

fn encoded<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("a decoded value encodes")
}
