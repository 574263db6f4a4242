//! JSON Schema plumbing shared by the toolcall crates.
//!
//! - [`pointer`](mod@pointer): JSON Pointers (RFC 6901), escaped, unescaped and ordered in one
//!   place;
//! - `refs` (feature `refs`): a `$ref` resolved against its base URI, the one rule of every crate;
//! - [`versions`]: the protocol versions whose official schemas the crates hold, one list;
//! - [`text`]: JSON text as written, without its layout ([`text::minify`]);
//! - `diff` (feature `diff`): what changed between two versions of a schema document (or of two
//!   bundles of them), each change classified for old producers talking to new consumers and the
//!   other way round; what `toolcall schemas diff` prints.
//!
//! `toolcall-contracts` re-exports `pointer` (`toolcall_contracts::pointer`); the codegen
//! pipeline, the schema policy, the bundle and the traffic checker use them directly.

#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "diff")]
#[cfg_attr(docsrs, doc(cfg(feature = "diff")))]
pub mod diff;
pub mod pointer;
#[cfg(feature = "refs")]
#[cfg_attr(docsrs, doc(cfg(feature = "refs")))]
pub mod refs;
pub mod text;
pub mod versions;
