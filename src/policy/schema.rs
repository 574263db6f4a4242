//! [`SchemaPolicy`]: what an untrusted schema may contain, and its compilation into a
//! [`CompiledSchema`].

use std::io;

use jsonschema::PatternOptions;
use serde_json::Value;

use super::compiled::CompiledSchema;
use super::dialect::Dialect;
use super::{limits, pin, refs};

/// Bounds on an untrusted JSON Schema (a tool provider's `input_schema`) and the `jsonschema`
/// configuration it is compiled with.
///
/// Fields are public; start from [`SchemaPolicy::default`] (the safe defaults listed on each
/// field) and change what you need. See the [module docs](crate::policy) for what the bounds
/// guarantee and the measured validation times.
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::policy::SchemaPolicy;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"path": {"type": "string"}, "line": {"type": "integer", "minimum": 1}},
///     "required": ["path"],
/// });
/// let compiled = SchemaPolicy::default().compile(&schema)?;
/// assert!(compiled.check(&json!({"path": "/tmp/a.rs", "line": 3})).is_ok());
/// # Ok::<(), toolcall_contracts::policy::PolicyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SchemaPolicy {
    /// Most bytes of the schema's compact JSON serialization. Default
    /// [`SchemaPolicy::DEFAULT_MAX_SCHEMA_BYTES`] (64 KiB).
    pub max_schema_bytes: usize,
    /// Deepest nesting of arrays and objects in the schema document, counted as in
    /// [`DecodeLimits`](crate::policy::DecodeLimits). Default
    /// [`SchemaPolicy::DEFAULT_MAX_SCHEMA_DEPTH`] (32).
    pub max_schema_depth: usize,
    /// Most JSON values in the schema with every `$ref` and `$dynamicRef` replaced by its
    /// target, `$defs` left out (a reference counts its target every time it is used; a
    /// `$dynamicRef` counts every `$dynamicAnchor` of its name).
    /// Default [`SchemaPolicy::DEFAULT_MAX_EXPANDED_SIZE`] (20 000).
    pub max_expanded_size: u64,
    /// The dialects a schema may be written in: its root `$schema` (a schema without one is
    /// [`Dialect::DEFAULT`], 2020-12) must name one of them, and it compiles as that dialect.
    /// Default: [`Dialect::ALL`] (draft-07, 2019-09 and 2020-12); narrow it with
    /// [`SchemaPolicy::with_allowed_dialects`].
    pub allowed_dialects: Vec<Dialect>,
    /// Whether every reference cycle is allowed. Default `false`: a cycle that applies each of
    /// its subschemas once per value of the instance (a list of itself, a tree model) costs
    /// linear time and is accepted; one that never descends into the instance, or can apply
    /// one subschema to one value along two paths ([`super::CycleCost`]), is refused, since
    /// validation time can then grow exponentially with the instance depth, bounded only by
    /// [`SchemaPolicy::max_instance_depth`].
    pub allow_ref_cycles: bool,
    /// Most bytes of compiled regex (Thompson NFA) for all distinct `pattern` and
    /// `patternProperties` regexes of the schema together; also the `regex` crate's
    /// `size_limit` for each one. Default [`SchemaPolicy::DEFAULT_MAX_REGEX_BYTES`] (256 KiB).
    pub max_regex_bytes: usize,
    /// Deepest instance [`CompiledSchema::check`] validates, counted as in
    /// [`DecodeLimits`](crate::policy::DecodeLimits). Default
    /// [`SchemaPolicy::DEFAULT_MAX_INSTANCE_DEPTH`] (64).
    pub max_instance_depth: usize,
    /// Most validation work [`CompiledSchema::check`] starts, in work units (roughly: the
    /// schema's expanded size times the instance's JSON values, plus each string's bytes times
    /// the string keywords and regex states that may apply to it; the
    /// [module docs](crate::policy) give the exact count and the measured cost of a unit).
    /// Default [`SchemaPolicy::DEFAULT_MAX_CHECK_WORK`] (10 000 000).
    pub max_check_work: u64,
}

impl SchemaPolicy {
    /// Default [`SchemaPolicy::max_schema_bytes`]: 64 KiB (65 536 bytes).
    pub const DEFAULT_MAX_SCHEMA_BYTES: usize = 64 * 1024;
    /// Default [`SchemaPolicy::max_schema_depth`]: 32.
    pub const DEFAULT_MAX_SCHEMA_DEPTH: usize = 32;
    /// Default [`SchemaPolicy::max_expanded_size`]: 20 000 JSON values.
    pub const DEFAULT_MAX_EXPANDED_SIZE: u64 = 20_000;
    /// Default [`SchemaPolicy::max_regex_bytes`]: 256 KiB (262 144 bytes).
    pub const DEFAULT_MAX_REGEX_BYTES: usize = 256 * 1024;
    /// Default [`SchemaPolicy::max_instance_depth`]: 64.
    pub const DEFAULT_MAX_INSTANCE_DEPTH: usize = 64;
    /// Default [`SchemaPolicy::max_check_work`]: 10 000 000 work units.
    pub const DEFAULT_MAX_CHECK_WORK: u64 = 10_000_000;

    /// Sets [`SchemaPolicy::allowed_dialects`]: only these dialects compile.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolcall_contracts::policy::{Dialect, PolicyError, SchemaPolicy, DIALECT_DRAFT_07};
    ///
    /// let only_2020_12 = SchemaPolicy::default().with_allowed_dialects([Dialect::Draft202012]);
    /// assert!(only_2020_12.compile(&json!({"type": "object"})).is_ok());
    /// assert_eq!(
    ///     only_2020_12.compile(&json!({"$schema": DIALECT_DRAFT_07})).unwrap_err(),
    ///     PolicyError::DialectNotAllowed { dialect: DIALECT_DRAFT_07.into(), pointer: "".into() },
    /// );
    /// ```
    #[must_use]
    pub fn with_allowed_dialects(mut self, dialects: impl IntoIterator<Item = Dialect>) -> Self {
        self.allowed_dialects = dialects.into_iter().collect();
        self
    }

    /// Sets [`SchemaPolicy::allow_ref_cycles`].
    #[must_use]
    pub fn with_ref_cycles(mut self, allow: bool) -> Self {
        self.allow_ref_cycles = allow;
        self
    }

    /// Sets [`SchemaPolicy::max_instance_depth`].
    #[must_use]
    pub fn with_max_instance_depth(mut self, depth: usize) -> Self {
        self.max_instance_depth = depth;
        self
    }

    /// Checks `schema` against every bound, then compiles it offline, as the dialect its root
    /// `$schema` names (2020-12 without one), with the linear-time regex engine.
    ///
    /// The checks run in this order, each on the whole schema before the next: depth, bytes,
    /// the root's dialect, then one walk over every subschema (`$defs` and `definitions`
    /// included) for `$schema`, `$id`, non-fragment references and regexes, then the expansion
    /// walk from the root (unresolved references, cycles, expanded size), then the dialect's
    /// meta-schema, then `jsonschema`'s build for that draft. Nothing is fetched and no file is
    /// read: the build has no retriever, and only `#...` references get past the checks. Takes
    /// up to about 20 ms for a schema at the limits on a quiet machine (see the
    /// [module docs](crate::policy)).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolcall_contracts::policy::{PolicyError, SchemaPolicy};
    ///
    /// let schema = json!({"$ref": "https://example.com/schema.json"});
    /// assert_eq!(
    ///     SchemaPolicy::default().compile(&schema).unwrap_err().to_string(),
    ///     "`$ref` `https://example.com/schema.json` at `/$ref` is not a fragment reference (`#...`)",
    /// );
    /// ```
    ///
    /// # Errors
    /// - [`PolicyError::SchemaTooDeep`]: arrays and objects nest deeper than
    ///   [`SchemaPolicy::max_schema_depth`].
    /// - [`PolicyError::SchemaTooLarge`]: the compact serialization is longer than
    ///   [`SchemaPolicy::max_schema_bytes`].
    /// - [`PolicyError::DialectNotAllowed`]: a `$schema` that names no dialect in
    ///   [`SchemaPolicy::allowed_dialects`] (an unknown URI, or not a string).
    /// - [`PolicyError::DefaultDialectNotAllowed`]: no `$schema` at the root, and 2020-12 is not
    ///   in [`SchemaPolicy::allowed_dialects`].
    /// - [`PolicyError::MixedDialects`]: a `$schema` below the root names another dialect than
    ///   the root's.
    /// - [`PolicyError::EmbeddedResource`]: an `$id` anywhere but the root.
    /// - [`PolicyError::NonLocalRef`]: a reference (`$ref`; `$dynamicRef` in 2020-12,
    ///   `$recursiveRef` in 2019-09) that does not start with `#` (remote, relative to an
    ///   `$id`, `file://`, `urn:` ...).
    /// - [`PolicyError::RecursiveRefNotRoot`]: a 2019-09 `$recursiveRef` other than `#`.
    /// - [`PolicyError::UnresolvedRef`]: a fragment reference to nothing in the schema.
    /// - [`PolicyError::RefCycle`]: a reference back to a schema that contains it, unless
    ///   [`SchemaPolicy::allow_ref_cycles`].
    /// - [`PolicyError::ExpandedTooLarge`]: the expanded size passes
    ///   [`SchemaPolicy::max_expanded_size`].
    /// - [`PolicyError::PatternUnsupported`]: a `pattern` or `patternProperties` regex the
    ///   linear-time engine cannot express (lookaround, backreference, invalid syntax).
    /// - [`PolicyError::PatternTooLarge`]: the schema's distinct regexes compile to more than
    ///   [`SchemaPolicy::max_regex_bytes`].
    /// - [`PolicyError::Invalid`]: anything else `jsonschema` refuses (the schema does not
    ///   conform to its dialect's meta-schema, say).
    pub fn compile(&self, schema: &Value) -> Result<CompiledSchema, PolicyError> {
        let pin = self.pin(schema)?;
        self.compile_pinned(schema, pin)
    }

    /// [`SchemaPolicy::compile`] after [`SchemaPolicy::pin`] accepted `schema` as `pin`.
    pub(crate) fn compile_pinned(
        &self,
        schema: &Value,
        pin: String,
    ) -> Result<CompiledSchema, PolicyError> {
        let dialect = self.dialect_of(schema)?;
        let analysis = refs::analyze(self, dialect, schema)?;
        // Validated here rather than by `build`, whose errors point into the meta-schema.
        if let Err(error) = dialect.check_meta_schema(schema) {
            return Err(PolicyError::Invalid {
                pointer: error.instance_path().to_string(),
                message: error.to_string(),
            });
        }
        // Setting a limit also makes `jsonschema` build every regex now rather than on first
        // use. The lazy DFA keeps the `regex` crate's default cache (2 MiB per regex).
        let patterns = PatternOptions::regex().size_limit(self.max_regex_bytes);
        // The per-draft entry point fixes the draft: `$schema` is never resolved. Formats stay
        // annotations in every dialect (draft-07 validators may assert them; `jsonschema` does
        // by default), so that the verdicts and the work bound do not depend on the dialect.
        let validator = dialect
            .options()
            .offline()
            .should_validate_formats(false)
            .with_pattern_options(patterns)
            .build(schema)
            .map_err(|error| Self::build_error(&error))?;
        Ok(CompiledSchema::new(validator, pin, dialect, analysis, self))
    }

    /// The dialect `schema` compiles as: the one its root `$schema` names, 2020-12 without one;
    /// refused unless in [`SchemaPolicy::allowed_dialects`].
    fn dialect_of(&self, schema: &Value) -> Result<Dialect, PolicyError> {
        match Dialect::of(schema) {
            Ok(dialect) if self.allowed_dialects.contains(&dialect) => Ok(dialect),
            Ok(dialect) if schema.get("$schema").is_none() => {
                Err(PolicyError::DefaultDialectNotAllowed {
                    dialect: dialect.uri(),
                })
            }
            Ok(dialect) => Err(PolicyError::DialectNotAllowed {
                dialect: schema["$schema"]
                    .as_str()
                    .unwrap_or(dialect.uri())
                    .to_owned(),
                pointer: String::new(),
            }),
            Err(dialect) => Err(PolicyError::DialectNotAllowed {
                dialect,
                pointer: String::new(),
            }),
        }
    }

    /// Checks depth and bytes, then returns the schema's pin: the lowercase hex SHA-256 of its
    /// canonical JSON (see [`SchemaCache`](crate::policy::SchemaCache)).
    ///
    /// # Errors
    /// [`PolicyError::SchemaTooDeep`] and [`PolicyError::SchemaTooLarge`], as in
    /// [`SchemaPolicy::compile`].
    pub fn pin(&self, schema: &Value) -> Result<String, PolicyError> {
        if let Some(depth) = limits::depth_past(schema, self.max_schema_depth) {
            return Err(PolicyError::SchemaTooDeep {
                depth,
                limit: self.max_schema_depth,
            });
        }
        let mut counter = ByteCounter(0);
        serde_json::to_writer(&mut counter, schema).expect("a `Value` always serializes");
        if counter.0 > self.max_schema_bytes {
            return Err(PolicyError::SchemaTooLarge {
                bytes: counter.0,
                limit: self.max_schema_bytes,
            });
        }
        Ok(pin::pin(schema))
    }

    fn build_error(error: &jsonschema::ValidationError<'_>) -> PolicyError {
        let pointer = error.schema_path().to_string();
        match error.kind() {
            jsonschema::error::ValidationErrorKind::Format { format } if format == "regex" => {
                PolicyError::PatternUnsupported {
                    pattern: match error.instance().as_ref() {
                        Value::String(pattern) => pattern.clone(),
                        other => other.to_string(),
                    },
                    pointer,
                }
            }
            _ => PolicyError::Invalid {
                pointer,
                message: error.to_string(),
            },
        }
    }
}

impl Default for SchemaPolicy {
    /// The safe defaults: 64 KiB, depth 32, expanded size 20 000, the draft-07, 2019-09 and
    /// 2020-12 dialects, no reference cycles, 256 KiB of regexes, instances 64 deep,
    /// 10 000 000 work units.
    fn default() -> Self {
        Self {
            max_schema_bytes: Self::DEFAULT_MAX_SCHEMA_BYTES,
            max_schema_depth: Self::DEFAULT_MAX_SCHEMA_DEPTH,
            max_expanded_size: Self::DEFAULT_MAX_EXPANDED_SIZE,
            allowed_dialects: Dialect::ALL.to_vec(),
            allow_ref_cycles: false,
            max_regex_bytes: Self::DEFAULT_MAX_REGEX_BYTES,
            max_instance_depth: Self::DEFAULT_MAX_INSTANCE_DEPTH,
            max_check_work: Self::DEFAULT_MAX_CHECK_WORK,
        }
    }
}

/// Counts the bytes written to it.
struct ByteCounter(usize);

impl io::Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 = self.0.saturating_add(buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Why [`SchemaPolicy::compile`] refused a schema.
///
/// Pointers are RFC 6901 JSON pointers into the schema (`""` for the root).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PolicyError {
    /// The schema nests arrays and objects deeper than [`SchemaPolicy::max_schema_depth`].
    #[error("schema nesting depth reaches `{depth}`, over `max_schema_depth` of `{limit}`")]
    SchemaTooDeep {
        /// The depth reached (`limit + 1`: the walk stops there).
        depth: usize,
        /// [`SchemaPolicy::max_schema_depth`].
        limit: usize,
    },
    /// The schema's compact serialization is longer than [`SchemaPolicy::max_schema_bytes`].
    #[error("schema is `{bytes}` bytes, over `max_schema_bytes` of `{limit}` bytes")]
    SchemaTooLarge {
        /// Length of the compact serialization, in bytes.
        bytes: usize,
        /// [`SchemaPolicy::max_schema_bytes`].
        limit: usize,
    },
    /// A `$schema` names no dialect of [`SchemaPolicy::allowed_dialects`]: an unknown URI (a
    /// draft-04 or a custom meta-schema, say), or one the caller narrowed out.
    #[error("`$schema` `{dialect}` at `{pointer}` is not in `allowed_dialects`")]
    DialectNotAllowed {
        /// The `$schema` value (as JSON when it is not a string).
        dialect: String,
        /// The subschema holding it.
        pointer: String,
    },
    /// The schema has no `$schema`, so it is 2020-12, and [`SchemaPolicy::allowed_dialects`]
    /// does not have 2020-12.
    #[error("schema has no `$schema`, so it is `{dialect}`, which is not in `allowed_dialects`")]
    DefaultDialectNotAllowed {
        /// The default dialect's URI ([`Dialect::DEFAULT`]).
        dialect: &'static str,
    },
    /// A `$schema` below the root names another dialect than the root's. A schema compiles as
    /// one dialect: its checks read the keywords of that dialect only.
    #[error("`$schema` `{dialect}` at `{pointer}` is not the root's dialect `{root}`")]
    MixedDialects {
        /// The nested `$schema` value.
        dialect: String,
        /// The subschema holding it.
        pointer: String,
        /// The root's dialect.
        root: Dialect,
    },
    /// An `$id` below the root would start an embedded resource, whose references resolve
    /// against a base the policy does not follow.
    #[error("`$id` at `{pointer}` starts an embedded resource; only the root may have `$id`")]
    EmbeddedResource {
        /// The subschema holding the `$id`.
        pointer: String,
    },
    /// A reference that is not a fragment of this schema.
    #[error("`{keyword}` `{reference}` at `{pointer}` is not a fragment reference (`#...`)")]
    NonLocalRef {
        /// `$ref`, `$dynamicRef` or `$recursiveRef`.
        keyword: &'static str,
        /// The reference as written.
        reference: String,
        /// The reference keyword's location.
        pointer: String,
    },
    /// A 2019-09 `$recursiveRef` other than `#`, the only value the draft defines (and the only
    /// one `jsonschema` follows, whatever is written).
    #[error("`$recursiveRef` `{reference}` at `{pointer}` is not `#`")]
    RecursiveRefNotRoot {
        /// The reference as written.
        reference: String,
        /// The reference keyword's location.
        pointer: String,
    },
    /// A fragment reference whose pointer or anchor names nothing in the schema.
    #[error("`{keyword}` `{reference}` at `{pointer}` resolves to nothing in the schema")]
    UnresolvedRef {
        /// `$ref` or `$dynamicRef`.
        keyword: &'static str,
        /// The reference as written.
        reference: String,
        /// The reference keyword's location.
        pointer: String,
    },
    /// A reference leads back to a schema that contains it, in a cycle whose validation time
    /// is not linear in the instance ([`super::CycleCost`]); a cycle that applies each of its
    /// subschemas once per value (a tree model) is accepted.
    #[error(
        "`{keyword}` at `{pointer}` leads back to `{target}`, a cycle that {why}; \
         `SchemaPolicy::with_ref_cycles(true)` allows it (validation then bounded by \
         `max_instance_depth` and `max_check_work`)"
    )]
    RefCycle {
        /// `$ref`, `$dynamicRef` or `$recursiveRef`.
        keyword: &'static str,
        /// The reference keyword's location (the first reference back the walk met).
        pointer: String,
        /// The schema it leads back to.
        target: String,
        /// Why the cycle is refused.
        why: super::CycleCost,
    },
    /// The schema with every reference expanded is larger than
    /// [`SchemaPolicy::max_expanded_size`].
    #[error("schema with every `$ref` expanded reaches `{size}` values, over `max_expanded_size` of `{limit}`")]
    ExpandedTooLarge {
        /// The size reached when the walk stopped (a lower bound of the full size).
        size: u64,
        /// [`SchemaPolicy::max_expanded_size`].
        limit: u64,
    },
    /// A `pattern` or `patternProperties` regex the linear-time engine cannot express.
    #[error("pattern `{pattern}` at `{pointer}` is refused by the linear-time regex engine (lookaround, backreference or invalid syntax)")]
    PatternUnsupported {
        /// The pattern as written.
        pattern: String,
        /// Its location (`.../pattern` or `.../patternProperties/<pattern>`).
        pointer: String,
    },
    /// A regex whose compiled form does not fit what the schema's earlier regexes left of
    /// [`SchemaPolicy::max_regex_bytes`].
    #[error("pattern `{pattern}` at `{pointer}` takes the compiled regexes past `max_regex_bytes` of `{limit}` bytes")]
    PatternTooLarge {
        /// The pattern as written.
        pattern: String,
        /// Its location (`.../pattern` or `.../patternProperties/<pattern>`).
        pointer: String,
        /// [`SchemaPolicy::max_regex_bytes`].
        limit: usize,
    },
    /// `jsonschema` refused the schema for another reason.
    #[error("schema is invalid at `{pointer}`: {message}")]
    Invalid {
        /// Location in the schema.
        pointer: String,
        /// `jsonschema`'s message.
        message: String,
    },
}
