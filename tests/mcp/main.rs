//! The generated MCP types: exact JSON both ways (`wire`), the specification's examples
//! (`examples`) and the other Rust implementations on them (`differential`), and the reference
//! server's tools as they are (`tools`); results decoded by their request's method (`paired`); whole
//! messages by the side that sent them (`sides`).

mod differential;
mod examples;
mod paired;
mod sides;
mod support;
mod tools;
mod wire;
