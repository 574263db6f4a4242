//! Model Context Protocol types, one module per protocol version, generated from the official
//! schemas under `schema/mcp/<version>/schema.json` (see each folder's `PROVENANCE.json`).
//!
//! Each version is behind its own feature, so that a consumer builds only what it speaks:
//! `mcp-2024-11-05`, `mcp-2025-03-26`, `mcp-2025-06-18`, `mcp-2025-11-25`, `mcp-2026-07-28`;
//! `mcp` turns on all of them.
//!
//! What the generated types do on the wire, in every version:
//! - unions whose branches fix a member to distinct values are enums told apart by it:
//!   `ClientRequest`, `ServerRequest`, `ClientNotification`, `ServerNotification` by `method`,
//!   `ContentBlock` by `type`, `ElicitRequestParams` by `mode` (absent `mode` is a form);
//! - `RequestId` and `ProgressToken` keep a string and an integer apart;
//! - `number` members are `serde_json::Number`: `2` stays `2`, `2.0` stays `2.0`;
//! - `_meta` and members the schema does not define are kept and written back;
//! - types are `#[non_exhaustive]`, built with `new(required...)` and setters.
//!
//! Whole messages by the side that sends them, a response decoded as the result of the request
//! it answers: `ClientMessage` and `ServerMessage` in each version module (see the `side`
//! module, built with any version).
//!
//! ```
//! # #[cfg(feature = "mcp-2025-11-25")] {
//! use toolcall_contracts::mcp::v2025_11_25::{ContentBlock, ProgressToken};
//!
//! let block: ContentBlock = serde_json::from_str(r#"{"type":"text","text":"hi"}"#)?;
//! assert!(matches!(block, ContentBlock::Text(ref text) if text.text == "hi"));
//! let token: ProgressToken = serde_json::from_str("7")?;
//! assert_eq!(serde_json::to_string(&token)?, "7");
//! # }
//! # Ok::<(), serde_json::Error>(())
//! ```

/// Declares every MCP version of `toolcall_schema::mcp_versions!` (the one list): the module of
/// each (behind its feature), then [`VERSIONS`] and [`SCHEMAS`].
macro_rules! versions {
    ($(($version:literal, $module:ident, $feature:literal)),* $(,)?) => {
        $(
            #[doc = concat!("MCP ", $version, ": the types of `schema/mcp/", $version, "/schema.json`.")]
            #[cfg(feature = $feature)]
            #[cfg_attr(docsrs, doc(cfg(feature = $feature)))]
            #[allow(
                missing_docs,
                clippy::all,
                clippy::pedantic,
                reason = "generated code; reviewed in generated/mcp/"
            )]
            pub mod $module {
                include!(concat!("../../generated/mcp/", stringify!($module), ".rs"));

                crate::mcp::side::version_messages!($module);

                /// The official JSON Schema this module was generated from.
                pub const SCHEMA_JSON: &str =
                    include_str!(concat!("../../schema/mcp/", $version, "/schema.json"));
            }
        )*

        #[cfg(any($(feature = $feature),*))]
        #[cfg_attr(docsrs, doc(cfg(any($(feature = $feature),*))))]
        pub mod side;

        /// The MCP protocol versions this crate has types and schemas for, oldest first.
        pub const VERSIONS: &[&str] = &[$($version),*];

        /// The official schema of each of [`VERSIONS`] (`(version, schema.json text)`), whatever
        /// the features: what a checker validates messages of any version against.
        pub const SCHEMAS: &[(&str, &str)] = &[
            $(($version, include_str!(concat!("../../schema/mcp/", $version, "/schema.json")))),*
        ];
    };
}

toolcall_schema::mcp_versions!(versions);

#[cfg(test)]
mod tests {
    /// Each version of the list has its feature in `Cargo.toml`, and `mcp` turns on every one.
    #[test]
    fn every_version_has_its_feature() {
        let manifest = include_str!("../../Cargo.toml");
        let all = manifest
            .lines()
            .find(|line| line.starts_with("mcp = ["))
            .expect("the feature `mcp`");
        for version in super::VERSIONS {
            let feature = format!("mcp-{version}");
            assert!(
                manifest.contains(&format!("\n{feature} = []")),
                "add `{feature} = []` to the [features] of Cargo.toml"
            );
            assert!(
                all.contains(&format!("\"{feature}\"")),
                "add \"{feature}\" to the feature `mcp` of Cargo.toml"
            );
        }
    }
}
