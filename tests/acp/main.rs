//! The generated ACP types: exact JSON both ways (`wire`), the shared ACP corpora round-tripped
//! (`roundtrip`) and compared with the official crate (`differential`).

// The corpus tests' classifier: which definition a message (or a part of it) must match.
#[path = "../support/mod.rs"]
mod support;

mod differential;
mod roundtrip;
mod wire;
