//! Which schema files feed which `generated/<family>.rs`, and the per-family settings.

use crate::emit::paths::Runtime;

/// One contract family: schema files in, one generated module out.
#[derive(Debug, Clone)]
pub struct Family {
    /// Family name: `acp`, `route`, `canonical`.
    pub name: &'static str,
    /// Schema files, relative to the workspace root.
    pub schemas: &'static [&'static str],
    /// The generated file, relative to the workspace root.
    pub output: &'static str,
    /// Root definitions whose `$ref` closure is generated; `None` generates every definition.
    pub roots: Option<&'static [&'static str]>,
    /// A schema file's root with a shape of its own (`{"title": "Config", "type": "object",
    /// ...}`, not only `$defs` or a lone `$ref`) is generated as a definition named after its
    /// `title`, else the file name; `false` leaves the root out.
    pub generate_root: bool,
    /// Definitions replaced by a Rust type instead of being generated: `(definition, path)`.
    /// Used where the contract says decoding stays tolerant and a named validator checks the
    /// value afterwards (the route body's `call_key`, `schema_pin`, `progress_token`).
    pub replacements: &'static [(&'static str, &'static str)],
    /// Tagged unions declared open although the schema has no catch-all branch: an unknown tag
    /// decodes into `Unknown(raw)` and is reported.
    pub open_unions: &'static [&'static str],
    /// `#[non_exhaustive]` types with `new(required...)` and setters (for upstream that adds
    /// members in minor versions).
    pub forward_compatible: bool,
    /// Structs keep members the schema does not define and write them back.
    pub keep_unknown_members: bool,
    /// An optional member sent as `null` although its schema does not admit `null` decodes as
    /// absent, reported as `defaulted`, instead of failing.
    pub null_as_absent: bool,
    /// A string enumeration with the value `other` takes any value it does not know as `other`
    /// (reported as `unknown_value`), as the official ACP crate does (`ToolKind`).
    pub unknown_enum_as_other: bool,
    /// The site that the schema's site-relative documentation links (`[Meta](/specification/...)`)
    /// point into: they become absolute in the generated docs, where a relative link renders
    /// broken. `None`: links are left as they are.
    pub doc_site: Option<&'static str>,
    /// Where generated code finds its support code.
    pub runtime: Runtime,
}

/// The ACP family: the official ACP v1 schema, exported by `toolcall-codegen acp export`.
pub const ACP: Family = Family {
    name: "acp",
    schemas: &["schema/acp/acp.schema.json"],
    output: "generated/acp.rs",
    roots: None,
    // The exporter's root is an index of every message (`anyOf` of agent and client messages
    // by kind), each branch a definition already.
    generate_root: false,
    replacements: &[],
    // ACP adds `session/update` variants in minor versions and clients must keep working; the
    // schema does not (yet) declare a catch-all branch for them.
    open_unions: &["SessionUpdate"],
    forward_compatible: true,
    // ACP allows members it does not define; a relay must not drop them.
    keep_unknown_members: true,
    // Agents send `null` for optional members whose schema does not admit it; decoded as absent,
    // reported.
    null_as_absent: true,
    // The official crate reads an unknown `ToolKind` as `other`; so do we, and report it.
    unknown_enum_as_other: true,
    doc_site: None,
    runtime: Runtime::Crate,
};

/// The route body: what a gateway sends a provider on a bound route.
pub const ROUTE: Family = Family {
    name: "route",
    schemas: &["schema/route/tool-call-request.schema.json"],
    output: "generated/route.rs",
    roots: None,
    generate_root: true,
    replacements: &[
        ("CallKey", "String"),
        ("SchemaPin", "String"),
        ("ProgressToken", "Value"),
    ],
    open_unions: &[],
    // Exhaustive on purpose: a new member must break a consumer's struct literal.
    forward_compatible: false,
    // The route contract: unknown members are tolerated and not carried.
    keep_unknown_members: false,
    // The route contract: an optional member sent as `null` decodes as absent.
    null_as_absent: true,
    unknown_enum_as_other: false,
    doc_site: None,
    runtime: Runtime::Crate,
};

/// The canonical tool model: what a tool is, one call to it, its result and its lifecycle.
///
/// The generated types are the wire shapes only (private `canonical::wire`); the public types in
/// `src/canonical/` convert from them through the same checks as their constructors. Definitions
/// whose rule typify cannot carry (patterns need `regress`, bounds would become `NonZero*` with
/// errors that name no member) are generated as their plain Rust type and checked by hand.
pub const CANONICAL: Family = Family {
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
    roots: None,
    generate_root: true,
    replacements: &[
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
    ],
    open_unions: &[],
    // Exhaustive on purpose: the canonical model is one contract between our own components.
    forward_compatible: false,
    // Unknown members are ignored (the schemas allow them) and not carried: the public types
    // have nowhere to keep them.
    keep_unknown_members: false,
    null_as_absent: true,
    unknown_enum_as_other: false,
    doc_site: None,
    runtime: Runtime::Crate,
};

/// One version of the Model Context Protocol: its official schema, as `mcp import` copied it.
///
/// MCP adds members and methods in every version: `#[non_exhaustive]` types with `new` and
/// setters; members the schema does not define (and `_meta` contents) are kept. A `null` where
/// the schema does not admit one is refused, as the official SDKs refuse it. The schema's
/// documentation links are relative to modelcontextprotocol.io.
const fn mcp(name: &'static str, schemas: &'static [&'static str], output: &'static str) -> Family {
    Family {
        name,
        schemas,
        output,
        roots: None,
        generate_root: true,
        replacements: &[],
        open_unions: &[],
        forward_compatible: true,
        keep_unknown_members: true,
        null_as_absent: false,
        unknown_enum_as_other: false,
        doc_site: Some("https://modelcontextprotocol.io"),
        runtime: Runtime::Crate,
    }
}

/// Declares the MCP families, one per version of `toolcall_schema::mcp_versions!` (the one list
/// of protocol versions), and [`ALL`].
macro_rules! mcp_families {
    ($(($version:literal, $module:ident, $feature:literal)),* $(,)?) => {
        /// The MCP families, oldest first: `schema/mcp/<version>/schema.json` into
        /// `generated/mcp/v<version>.rs`.
        pub const MCP: &[Family] = &[$(
            mcp(
                $feature,
                &[concat!("schema/mcp/", $version, "/schema.json")],
                concat!("generated/mcp/", stringify!($module), ".rs"),
            )
        ),*];

        /// Every family, in generation order.
        pub const ALL: &[Family] = &[ACP, ROUTE, CANONICAL, $(
            mcp(
                $feature,
                &[concat!("schema/mcp/", $version, "/schema.json")],
                concat!("generated/mcp/", stringify!($module), ".rs"),
            )
        ),*];
    };
}
toolcall_schema::mcp_versions!(mcp_families);
