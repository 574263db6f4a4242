//! The protocol versions whose official schemas the toolcall crates hold: the one list every
//! crate derives its own tables from (the library's `mcp` modules and features, the codegen
//! families, the traffic checker's schemas, the schema import).
//!
//! Adding an MCP version is one line in [`mcp_versions!`](crate::mcp_versions), the official
//! schema imported with `cargo xtask mcp import --file schema.json --version V`, and the feature
//! `mcp-V` of `toolcall-contracts` (a test of that crate names the line to add when it is
//! missing).

/// Calls `$callback!` with every MCP protocol version the toolcall crates hold, oldest first,
/// each as `("VERSION", module_name, "feature-name")`:
///
/// ```
/// macro_rules! count {
///     ($(($version:literal, $module:ident, $feature:literal)),* $(,)?) => {
///         [$($version),*].len()
///     };
/// }
/// assert_eq!(toolcall_schema::mcp_versions!(count), toolcall_schema::versions::MCP.len());
/// ```
#[macro_export]
macro_rules! mcp_versions {
    ($callback:ident) => {
        $callback! {
            ("2024-11-05", v2024_11_05, "mcp-2024-11-05"),
            ("2025-03-26", v2025_03_26, "mcp-2025-03-26"),
            ("2025-06-18", v2025_06_18, "mcp-2025-06-18"),
            ("2025-11-25", v2025_11_25, "mcp-2025-11-25"),
            ("2026-07-28", v2026_07_28, "mcp-2026-07-28"),
        }
    };
}

macro_rules! list {
    ($(($version:literal, $module:ident, $feature:literal)),* $(,)?) => {
        /// The MCP protocol versions, oldest first ([`mcp_versions!`](crate::mcp_versions)).
        pub const MCP: &[&str] = &[$($version),*];
    };
}
mcp_versions!(list);

/// The newest MCP protocol version (what a session that names none is checked against).
#[must_use]
pub fn newest_mcp() -> &'static str {
    MCP[MCP.len() - 1]
}

#[cfg(test)]
mod tests {
    #[test]
    fn versions_are_dates_oldest_first() {
        assert!(super::MCP.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(super::MCP
            .iter()
            .all(|v| v.len() == 10 && v.as_bytes()[4] == b'-' && v.as_bytes()[7] == b'-'));
        assert_eq!(super::newest_mcp(), "2026-07-28");
    }
}
