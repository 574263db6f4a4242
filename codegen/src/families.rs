//! Which schema files feed which `generated/<family>.rs`, and the per-family settings.

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
}

/// The ACP family: the official ACP v1 schema, exported by `toolcall-codegen acp export`.
pub const ACP: Family = Family {
    name: "acp",
    schemas: &["schema/acp/acp.schema.json"],
    output: "generated/acp.rs",
    roots: None,
    replacements: &[],
    // ACP adds `session/update` variants in minor versions and clients must keep working; the
    // schema does not (yet) declare a catch-all branch for them.
    open_unions: &["SessionUpdate"],
    forward_compatible: true,
};

/// The route body: what a gateway sends a provider on a bound route.
pub const ROUTE: Family = Family {
    name: "route",
    schemas: &["schema/route/tool-call-request.schema.json"],
    output: "generated/route.rs",
    roots: None,
    replacements: &[
        ("CallKey", "::std::string::String"),
        ("SchemaPin", "::std::string::String"),
        ("ProgressToken", "::serde_json::Value"),
    ],
    open_unions: &[],
    // Exhaustive on purpose: a new member must break a consumer's struct literal.
    forward_compatible: false,
};

/// Every family, in generation order.
pub const ALL: &[Family] = &[ACP, ROUTE];
