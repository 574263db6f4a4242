//! The types of `orders.schema.json`, written by `toolcall-codegen generate --schema` into
//! `src/orders.rs` and compiled with warnings denied.
#![deny(warnings)]

pub mod orders;
