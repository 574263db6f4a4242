//! Safe handling of untrusted schemas and inputs: [`SchemaPolicy`] (TODO docs).

mod cache;
mod compiled;
mod limits;
mod pin;
mod refs;
mod regex;
mod schema;

pub use cache::SchemaCache;
pub use compiled::{CompiledSchema, InstanceError};
pub use limits::{DecodeLimits, LimitError};
pub use schema::{PolicyError, SchemaPolicy, DIALECT_2020_12};
