//! `decode` and `encode`: the decode limits (`limits`) and encode's bytes against serde_json's
//! (`encode_identity`).

#[path = "../../benches/wire/corpus.rs"]
#[allow(dead_code, reason = "the corpus module also serves the benchmarks")]
mod corpus;
// The corpus tests' classifier: which definition a message (or a part of it) must match.
#[path = "../support/mod.rs"]
mod support;

mod encode_identity;
mod limits;
