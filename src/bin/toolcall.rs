//! `toolcall`: check real tool-call traffic against the contracts.

fn main() {}
