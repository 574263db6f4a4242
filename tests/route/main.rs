//! The route body: exact JSON both ways and the opaque-field rules (`wire`).

mod wire;
