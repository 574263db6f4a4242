//! The canonical tool model: every rule at its boundary (`rules`), exact JSON (`wire`) and
//! argument validation (`arguments`).

mod arguments;
mod rules;
mod wire;
