//! [`Dialect`]: the JSON Schema dialects a schema may be written in, named by their `$schema`
//! URI, each compiled by `jsonschema` as that draft and checked against its bundled
//! meta-schema.

use std::fmt;

use serde_json::Value;

/// The draft-07 meta-schema URI (`$schema` of the schemas zod, `zod-to-json-schema` and the MCP
/// TypeScript SDK write).
pub const DIALECT_DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";
/// The draft 2019-09 meta-schema URI.
pub const DIALECT_2019_09: &str = "https://json-schema.org/draft/2019-09/schema";
/// The 2020-12 meta-schema URI, the dialect of a schema without `$schema` (MCP 2025-11-25,
/// *Tools*: "defaults to 2020-12").
pub const DIALECT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// A JSON Schema dialect: draft-07, draft 2019-09 or 2020-12.
///
/// A schema names its dialect with `$schema` at its root, as the dialect's meta-schema URI
/// ([`Dialect::uri`]; a trailing `#` or its absence makes no difference, nothing else may
/// differ: `http://` for `https://` names an unknown dialect). A schema without `$schema` is
/// 2020-12 ([`Dialect::DEFAULT`]).
///
/// ```
/// use toolcall_contracts::policy::{Dialect, DIALECT_DRAFT_07};
///
/// assert_eq!(Dialect::from_uri(DIALECT_DRAFT_07), Some(Dialect::Draft07));
/// assert_eq!(Dialect::from_uri("http://json-schema.org/draft-07/schema"), Some(Dialect::Draft07));
/// assert_eq!(Dialect::from_uri("http://json-schema.org/draft-04/schema#"), None);
/// assert_eq!(Dialect::Draft201909.to_string(), "2019-09");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Dialect {
    /// Draft-07, [`DIALECT_DRAFT_07`]: `definitions`, `items` as a schema or an array of
    /// schemas, `additionalItems`, `dependencies`, `$ref` replacing its sibling keywords.
    Draft07,
    /// Draft 2019-09, [`DIALECT_2019_09`]: `$defs`, `$anchor`, `$recursiveRef`,
    /// `dependentSchemas`, `unevaluatedProperties`, `unevaluatedItems`.
    Draft201909,
    /// Draft 2020-12, [`DIALECT_2020_12`]: `prefixItems`, `$dynamicRef`.
    Draft202012,
}

impl Dialect {
    /// Every dialect, oldest first: the default of
    /// [`SchemaPolicy::allowed_dialects`](crate::policy::SchemaPolicy::allowed_dialects).
    pub const ALL: [Dialect; 3] = [Self::Draft07, Self::Draft201909, Self::Draft202012];

    /// The dialect of a schema without `$schema`: 2020-12.
    pub const DEFAULT: Dialect = Self::Draft202012;

    /// The meta-schema URI, as `$schema` names it ([`DIALECT_DRAFT_07`], [`DIALECT_2019_09`],
    /// [`DIALECT_2020_12`]).
    #[must_use]
    pub const fn uri(self) -> &'static str {
        match self {
            Self::Draft07 => DIALECT_DRAFT_07,
            Self::Draft201909 => DIALECT_2019_09,
            Self::Draft202012 => DIALECT_2020_12,
        }
    }

    /// The short name messages use: `draft-07`, `2019-09` or `2020-12` (also its `Display`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Draft07 => "draft-07",
            Self::Draft201909 => "2019-09",
            Self::Draft202012 => "2020-12",
        }
    }

    /// The dialect whose meta-schema URI is `uri`, a trailing `#` ignored on both sides; `None`
    /// for any other URI.
    #[must_use]
    pub fn from_uri(uri: &str) -> Option<Self> {
        let uri = uri.strip_suffix('#').unwrap_or(uri);
        Self::ALL.into_iter().find(|dialect| {
            let own = dialect.uri();
            own.strip_suffix('#').unwrap_or(own) == uri
        })
    }

    /// The dialect `schema` declares with `$schema` at its root, [`Dialect::DEFAULT`] when it
    /// has none (or is not an object); else the `$schema` value that names no dialect (as JSON
    /// text when it is not a string), for the caller's error.
    pub(crate) fn of(schema: &Value) -> Result<Self, String> {
        match schema.get("$schema") {
            None => Ok(Self::DEFAULT),
            Some(Value::String(uri)) => Self::from_uri(uri).ok_or_else(|| uri.clone()),
            Some(other) => Err(other.to_string()),
        }
    }

    /// `jsonschema` options for this draft: the explicit per-draft entry point, so that
    /// `$schema` never selects the draft and no meta-schema is ever resolved.
    pub(crate) fn options<'i>(self) -> jsonschema::ValidationOptions<'i> {
        match self {
            Self::Draft07 => jsonschema::draft7::options(),
            Self::Draft201909 => jsonschema::draft201909::options(),
            Self::Draft202012 => jsonschema::draft202012::options(),
        }
    }

    /// Validates `schema` against this dialect's meta-schema, the one bundled in `jsonschema`
    /// (nothing is fetched, `$schema` is not read).
    pub(crate) fn check_meta_schema(
        self,
        schema: &Value,
    ) -> Result<(), jsonschema::ValidationError<'_>> {
        match self {
            Self::Draft07 => jsonschema::draft7::meta::validator().validate(schema),
            Self::Draft201909 => jsonschema::draft201909::meta::validator().validate(schema),
            Self::Draft202012 => jsonschema::draft202012::meta::validator().validate(schema),
        }
    }
}

impl fmt::Display for Dialect {
    /// [`Dialect::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn uris_with_and_without_the_empty_fragment() {
        for dialect in Dialect::ALL {
            let bare = dialect.uri().trim_end_matches('#');
            assert_eq!(Dialect::from_uri(bare), Some(dialect));
            assert_eq!(Dialect::from_uri(&format!("{bare}#")), Some(dialect));
        }
        for other in [
            "http://json-schema.org/draft/2020-12/schema",
            "https://json-schema.org/draft-07/schema#",
            "http://json-schema.org/draft-06/schema#",
            "https://json-schema.org/schema",
            "",
            "#",
        ] {
            assert_eq!(Dialect::from_uri(other), None, "{other}");
        }
    }

    #[test]
    fn declared_and_default() {
        assert_eq!(Dialect::of(&json!({})), Ok(Dialect::Draft202012));
        assert_eq!(Dialect::of(&json!(true)), Ok(Dialect::Draft202012));
        assert_eq!(
            Dialect::of(&json!({"$schema": DIALECT_2019_09})),
            Ok(Dialect::Draft201909)
        );
        assert_eq!(Dialect::of(&json!({"$schema": 7})), Err("7".to_owned()));
        assert_eq!(
            Dialect::of(&json!({"$schema": "urn:x"})),
            Err("urn:x".to_owned())
        );
    }

    #[test]
    fn each_meta_schema_is_its_own() {
        // `items` as an array of schemas: a draft-07 and 2019-09 form, not a 2020-12 one.
        let tuple = json!({"items": [{"type": "integer"}]});
        assert!(Dialect::Draft07.check_meta_schema(&tuple).is_ok());
        assert!(Dialect::Draft201909.check_meta_schema(&tuple).is_ok());
        assert!(Dialect::Draft202012.check_meta_schema(&tuple).is_err());
        // `$recursiveAnchor`: a boolean in 2019-09, a deprecated anchor name in 2020-12,
        // nothing in draft-07.
        let boolean = json!({"$recursiveAnchor": true});
        assert!(Dialect::Draft07.check_meta_schema(&boolean).is_ok());
        assert!(Dialect::Draft201909.check_meta_schema(&boolean).is_ok());
        assert!(Dialect::Draft202012.check_meta_schema(&boolean).is_err());
        let name = json!({"$recursiveAnchor": "node"});
        assert!(Dialect::Draft07.check_meta_schema(&name).is_ok());
        assert!(Dialect::Draft201909.check_meta_schema(&name).is_err());
        assert!(Dialect::Draft202012.check_meta_schema(&name).is_ok());
    }
}
