//! The types of `orders.schema.json`, written by the build script into `OUT_DIR` and compiled
//! with warnings denied.
#![deny(warnings)]

pub mod orders {
    include!(concat!(env!("OUT_DIR"), "/orders.rs"));
}
