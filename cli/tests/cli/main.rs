//! End-to-end tests of the `toolcall` binary: `validate`, `convert` and `tools project`, and the
//! `tap` relay with `tee` as its child. The real protocol peers through the tap are in
//! `tests/peers/`.

mod hops;
mod schemas;
mod support;
mod tap_http;
mod tap_relay;
mod validate;
