//! The sealed marker of [`crate::Contract`]: implemented by generated types only (this crate's,
//! and modules generated with `toolcall-codegen` for a user's own schema).

/// Implemented by generated code only; see [`crate::Contract`].
pub trait Sealed {}
