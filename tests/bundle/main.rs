//! The published schema bundle against the Rust types, on the golden vectors (`agreement`).

mod agreement;
