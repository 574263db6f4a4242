//! Nothing: the measurements are under `benches/`.
