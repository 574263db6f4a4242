//! Limits on untrusted JSON checked before it is parsed ([`DecodeLimits`], always built) and,
//! with feature `policy`, safe handling of untrusted JSON Schemas (a tool provider's
//! `input_schema`) and of the inputs checked against them: one documented policy, typed
//! refusals, measured time bounds.
//!
#![cfg_attr(feature = "policy", doc = include_str!("schemas.md"))]

#[cfg(feature = "policy")]
mod cache;
#[cfg(feature = "policy")]
mod compiled;
#[cfg(feature = "policy")]
mod cycles;
#[cfg(feature = "policy")]
mod dialect;
pub(crate) mod limits;
#[cfg(feature = "policy")]
mod pin;
#[cfg(feature = "policy")]
mod refs;
#[cfg(feature = "policy")]
mod regex;
#[cfg(feature = "policy")]
mod schema;

#[cfg(feature = "policy")]
#[cfg_attr(docsrs, doc(cfg(feature = "policy")))]
pub use cache::SchemaCache;
#[cfg(feature = "policy")]
#[cfg_attr(docsrs, doc(cfg(feature = "policy")))]
pub use compiled::{CompiledSchema, InstanceError};
#[cfg(feature = "policy")]
#[cfg_attr(docsrs, doc(cfg(feature = "policy")))]
pub use cycles::CycleCost;
#[cfg(feature = "policy")]
#[cfg_attr(docsrs, doc(cfg(feature = "policy")))]
pub use dialect::{Dialect, DIALECT_2019_09, DIALECT_2020_12, DIALECT_DRAFT_07};
pub use limits::{DecodeLimits, LimitError};
#[cfg(feature = "canonical")]
pub(crate) use pin::pin as schema_pin;
#[cfg(feature = "policy")]
#[cfg_attr(docsrs, doc(cfg(feature = "policy")))]
pub use schema::{PolicyError, SchemaPolicy};
