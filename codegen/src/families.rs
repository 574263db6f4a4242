//! The families this repository generates, as [`Builder`] presets: which schema files feed which
//! `generated/<family>.rs`, with which settings.

use std::path::Path;

use crate::emit::paths::Runtime;
use crate::Builder;

/// One family of this repository: its schema files, its generated file and its settings.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// Family name: `acp`, `route`, `canonical`, `mcp-2025-11-25`...
    pub name: &'static str,
    /// Schema files, relative to the workspace root.
    pub schemas: &'static [&'static str],
    /// The generated file, relative to the workspace root.
    pub output: &'static str,
    settings: fn(Builder) -> Builder,
}

impl Preset {
    /// The preset's builder, its schema files under `root`, for a user's crate.
    pub(crate) fn builder(&self, root: &Path) -> Builder {
        (self.settings)(Builder::files(self.name, root, self.schemas)).check_assertions(false)
    }

    /// The preset's builder as this repository generates it, inside the contracts crate.
    pub(crate) fn in_repo(&self, root: &Path) -> Builder {
        self.builder(root).runtime(Runtime::Crate)
    }
}

/// The ACP family: the official ACP v1 schema, exported by `cargo xtask acp import`.
const ACP: Preset = Preset {
    name: "acp",
    schemas: &["schema/acp/acp.schema.json"],
    output: "generated/acp.rs",
    settings: |builder| {
        builder
            // The exporter's root is an index of every message (`anyOf` of agent and client
            // messages by kind), each branch a definition already.
            .generate_root(false)
            // ACP adds `session/update` variants in minor versions and clients must keep
            // working; the schema does not (yet) declare a catch-all branch for them.
            .open_union("SessionUpdate")
            .forward_compatible(true)
            // ACP allows members it does not define; a relay must not drop them.
            .keep_unknown_members(true)
            // Agents send `null` for optional members whose schema does not admit it; decoded
            // as absent, reported.
            .null_as_absent(true)
            // The official crate reads an unknown `ToolKind` as `other`; so do we, and report
            // it.
            .unknown_enum_as_other(true)
    },
};

/// The route body: what a gateway sends a provider on a bound route.
const ROUTE: Preset = Preset {
    name: "route",
    schemas: &["schema/route/tool-call-request.schema.json"],
    output: "generated/route.rs",
    settings: |builder| {
        builder
            // Decoding stays tolerant; a named validator checks these values afterwards.
            .replace("CallKey", "String")
            .replace("SchemaPin", "String")
            .replace("ProgressToken", "Value")
            // Exhaustive on purpose: a new member must break a consumer's struct literal.
            .forward_compatible(false)
            // The route contract: unknown members are tolerated and not carried.
            .keep_unknown_members(false)
            // The route contract: an optional member sent as `null` decodes as absent.
            .null_as_absent(true)
    },
};

/// The canonical tool model: what a tool is, one call to it, its result and its lifecycle.
///
/// The generated types are the wire shapes only (private `canonical::wire`); the public types in
/// `src/canonical/` convert from them through the same checks as their constructors. Definitions
/// whose rule typify cannot carry (patterns need `regress`, bounds would become `NonZero*` with
/// errors that name no member) are generated as their plain Rust type and checked by hand.
const CANONICAL: Preset = Preset {
    name: "canonical",
    schemas: &[
        "schema/canonical/ids.schema.json",
        "schema/canonical/limits.schema.json",
        "schema/canonical/execution-class.schema.json",
        "schema/canonical/tool-spec.schema.json",
        "schema/canonical/tool-call.schema.json",
        "schema/canonical/tool-result.schema.json",
        "schema/canonical/lifecycle.schema.json",
    ],
    output: "generated/canonical.rs",
    settings: |builder| {
        [
            ("ToolId", "String"),
            ("ToolName", "String"),
            ("ChannelId", "String"),
            ("SessionId", "String"),
            ("TransactionId", "String"),
            ("ExchangeId", "String"),
            ("ToolActionId", "String"),
            ("ToolDescription", "String"),
            ("MediaType", "String"),
            ("ErrorCode", "String"),
            ("ErrorMessage", "String"),
            ("JsonSchema", "Value"),
            ("ConcurrencyLimit", "u32"),
            ("ByteLimit", "u64"),
            ("DurationMs", "u64"),
            ("RequestOrdinal", "u32"),
        ]
        .into_iter()
        .fold(builder, |builder, (definition, ty)| {
            builder.replace(definition, ty)
        })
        // Exhaustive on purpose: the canonical model is one contract between our own
        // components.
        .forward_compatible(false)
        // Unknown members are ignored (the schemas allow them) and not carried: the public
        // types have nowhere to keep them.
        .keep_unknown_members(false)
        .null_as_absent(true)
    },
};

/// One version of the Model Context Protocol: its official schema, as `mcp import` copied it.
///
/// MCP adds members and methods in every version: `#[non_exhaustive]` types with `new` and
/// setters; members the schema does not define (and `_meta` contents) are kept. A `null` where
/// the schema does not admit one is refused, as the official SDKs refuse it. The schema's
/// documentation links are relative to modelcontextprotocol.io.
///
/// Results carry no tag: `ServerResult` answers a `ClientRequest` and `ClientResult` a
/// `ServerRequest`, paired by `method` (`ServerResult::decode_for`). 2026-07-28 has no requests
/// from the server: a server asks for input within a result (`InputRequiredResult`).
fn mcp(builder: Builder, version: &str) -> Builder {
    let builder = builder
        .forward_compatible(true)
        .keep_unknown_members(true)
        .doc_site("https://modelcontextprotocol.io")
        .paired_results("ClientRequest", "ServerResult");
    if version < NO_SERVER_REQUESTS_FROM {
        builder.paired_results("ServerRequest", "ClientResult")
    } else {
        builder
    }
}

/// The first MCP version without `ServerRequest` (versions are dates: they sort as text).
const NO_SERVER_REQUESTS_FROM: &str = "2026-07-28";

/// Declares [`PRESETS`]: ACP, the route body, the canonical model, then one MCP preset per
/// version of `toolcall_schema::mcp_versions!` (the one list of protocol versions), oldest first:
/// `schema/mcp/<version>/schema.json` into `generated/mcp/v<version>.rs`.
macro_rules! presets {
    ($(($version:literal, $module:ident, $feature:literal)),* $(,)?) => {
        /// Every family, in generation order.
        pub const PRESETS: &[Preset] = &[ACP, ROUTE, CANONICAL, $(
            Preset {
                name: $feature,
                schemas: &[concat!("schema/mcp/", $version, "/schema.json")],
                output: concat!("generated/mcp/", stringify!($module), ".rs"),
                settings: |builder| mcp(builder, $version),
            }
        ),*];
    };
}
toolcall_schema::mcp_versions!(presets);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_once_and_every_mcp_version_has_one() {
        let mut names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        assert_eq!(names[..3], ["acp", "route", "canonical"]);
        assert_eq!(PRESETS.len(), 3 + toolcall_schema::versions::MCP.len());
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PRESETS.len(), "a name twice");
        for version in toolcall_schema::versions::MCP {
            assert!(
                PRESETS
                    .iter()
                    .any(|p| p.schemas == [format!("schema/mcp/{version}/schema.json")]),
                "{version}"
            );
        }
    }

    /// Each MCP preset pairs `ServerRequest` with `ClientResult` exactly when its schema has a
    /// `ServerRequest`, and every method of each request union gets a branch.
    #[test]
    fn every_mcp_preset_pairs_the_request_unions_its_schema_has() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for preset in &PRESETS[3..] {
            let text = std::fs::read_to_string(root.join(preset.schemas[0])).unwrap();
            let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
            let defs = schema
                .get("$defs")
                .or_else(|| schema.get("definitions"))
                .unwrap();
            let model = preset.in_repo(&root).model().unwrap();
            let paired: Vec<&str> = model.pairings.iter().map(|p| p.requests.as_str()).collect();
            let mut expected = vec!["ClientRequest"];
            if defs.get("ServerRequest").is_some() {
                expected.push("ServerRequest");
            }
            assert_eq!(paired, expected, "{}", preset.name);
            for pairing in &model.pairings {
                for pair in &pairing.pairs {
                    assert!(pair.result.is_some(), "{}: {}", preset.name, pair.value);
                }
            }
        }
    }
}
