//! One module per reported bug (found by the differential and round-trip tests).

mod auth_method_non_string_type;
mod duplicate_members;
mod envelope_params_best_fit;
