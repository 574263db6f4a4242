//! [`CompiledSchema`]: a schema accepted by a [`SchemaPolicy`](crate::policy::SchemaPolicy),
//! ready to check instances.

use std::fmt;

use serde_json::Value;

use super::dialect::Dialect;
use super::refs::Analysis;
use super::schema::SchemaPolicy;

/// Work units every instance value costs on top of the schema's expanded size: visiting a value
/// costs about as much as checking that many simple keywords (measured: see the module docs).
const VALUE_WEIGHT: u64 = 8;

/// A compiled validator for a schema the policy accepted, in the schema's own dialect
/// ([`CompiledSchema::dialect`]).
///
/// Built by [`SchemaPolicy::compile`](crate::policy::SchemaPolicy::compile) (about 60 µs for a
/// small tool schema: keep it, or use a [`SchemaCache`](crate::policy::SchemaCache)). Cheap to
/// share: `Send + Sync`.
pub struct CompiledSchema {
    validator: jsonschema::Validator,
    pin: String,
    dialect: Dialect,
    analysis: Analysis,
    max_instance_depth: usize,
    max_check_work: u64,
}

impl CompiledSchema {
    pub(crate) fn new(
        validator: jsonschema::Validator,
        pin: String,
        dialect: Dialect,
        analysis: Analysis,
        policy: &SchemaPolicy,
    ) -> Self {
        Self {
            validator,
            pin,
            dialect,
            analysis,
            max_instance_depth: policy.max_instance_depth,
            max_check_work: policy.max_check_work,
        }
    }

    /// The schema's pin: lowercase hex SHA-256 of its canonical JSON (64 characters).
    #[must_use]
    pub fn pin(&self) -> &str {
        &self.pin
    }

    /// The dialect the schema was compiled as: the one its root `$schema` names, 2020-12
    /// without one.
    #[must_use]
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Size of the schema with every `$ref` expanded, in JSON values (see
    /// [`SchemaPolicy::max_expanded_size`](crate::policy::SchemaPolicy::max_expanded_size)).
    #[must_use]
    pub fn expanded_size(&self) -> u64 {
        self.analysis.expanded_size
    }

    /// The work units [`CompiledSchema::check`] charges for `instance` (see
    /// [`SchemaPolicy::max_check_work`](crate::policy::SchemaPolicy::max_check_work)), or
    /// `None` when `instance` is deeper than the policy's `max_instance_depth`.
    #[must_use]
    pub fn work(&self, instance: &Value) -> Option<u64> {
        self.measure(instance).ok()
    }

    /// The work units for `instance`, or the first depth past `max_instance_depth`. One
    /// iterative walk: safe on values of any depth.
    fn measure(&self, instance: &Value) -> Result<u64, usize> {
        let analysis = &self.analysis;
        let charges = &analysis.regexes;
        let mut values = 0u64;
        let mut string_bytes = 0u64;
        let mut regex_work = 0u64;
        let mut stack: Vec<(&Value, usize, Option<&str>)> = vec![(instance, 0, None)];
        while let Some((value, depth, member)) = stack.pop() {
            values += 1;
            match value {
                Value::String(string) => {
                    let bytes = string.len() as u64;
                    string_bytes += bytes;
                    let by_member = member
                        .and_then(|name| charges.by_member.get(name))
                        .copied()
                        .unwrap_or(0);
                    let price = charges.any_value.saturating_add(by_member);
                    regex_work = regex_work.saturating_add(price.saturating_mul(bytes));
                }
                Value::Array(items) => {
                    if depth + 1 > self.max_instance_depth {
                        return Err(depth + 1);
                    }
                    stack.extend(items.iter().map(|item| (item, depth + 1, None)));
                }
                Value::Object(members) => {
                    if depth + 1 > self.max_instance_depth {
                        return Err(depth + 1);
                    }
                    for (name, item) in members {
                        let bytes = name.len() as u64;
                        string_bytes += bytes;
                        regex_work = regex_work.saturating_add(charges.names.saturating_mul(bytes));
                        stack.push((item, depth + 1, Some(name.as_str())));
                    }
                }
                _ => {}
            }
        }
        Ok(analysis
            .expanded_size
            .saturating_add(VALUE_WEIGHT)
            .saturating_mul(values)
            .saturating_add(analysis.string_scans.saturating_mul(string_bytes))
            .saturating_add(regex_work))
    }

    /// Validates `instance`, reporting the first error only.
    ///
    /// Runs `is_valid` (no error is built for a valid instance), then, for an invalid one,
    /// `validate` for a single error; it never collects every error.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolcall_contracts::policy::{InstanceError, SchemaPolicy};
    ///
    /// let schema = json!({"properties": {"line": {"type": "integer", "minimum": 1}}});
    /// let compiled = SchemaPolicy::default().compile(&schema)?;
    /// assert_eq!(
    ///     compiled.check(&json!({"line": 0})),
    ///     Err(InstanceError::Invalid {
    ///         instance_pointer: "/line".into(),
    ///         keyword: "minimum".into(),
    ///         schema_pointer: "/properties/line/minimum".into(),
    ///     }),
    /// );
    /// # Ok::<(), toolcall_contracts::policy::PolicyError>(())
    /// ```
    ///
    /// # Errors
    /// - [`InstanceError::TooDeep`] when `instance` nests deeper than
    ///   [`SchemaPolicy::max_instance_depth`](crate::policy::SchemaPolicy::max_instance_depth)
    ///   (checked first, without recursion: a value built in code may be arbitrarily deep).
    /// - [`InstanceError::TooMuchWork`] when validating `instance` would cost more than
    ///   [`SchemaPolicy::max_check_work`](crate::policy::SchemaPolicy::max_check_work) (checked
    ///   in the same walk, before validation starts).
    /// - [`InstanceError::Invalid`] when `instance` does not conform to the schema.
    pub fn check(&self, instance: &Value) -> Result<(), InstanceError> {
        let work = self
            .measure(instance)
            .map_err(|depth| InstanceError::TooDeep {
                depth,
                limit: self.max_instance_depth,
            })?;
        if work > self.max_check_work {
            return Err(InstanceError::TooMuchWork {
                work,
                limit: self.max_check_work,
            });
        }
        if self.validator.is_valid(instance) {
            return Ok(());
        }
        match self.validator.validate(instance) {
            Ok(()) => Ok(()),
            Err(error) => Err(InstanceError::Invalid {
                instance_pointer: error.instance_path().to_string(),
                keyword: error.kind().keyword().to_owned(),
                schema_pointer: error.schema_path().to_string(),
            }),
        }
    }
}

impl fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompiledSchema")
            .field("pin", &self.pin)
            .field("dialect", &self.dialect)
            .field("expanded_size", &self.analysis.expanded_size)
            .field("max_instance_depth", &self.max_instance_depth)
            .field("max_check_work", &self.max_check_work)
            .finish_non_exhaustive()
    }
}

/// Why [`CompiledSchema::check`] refused an instance.
///
/// Pointers are RFC 6901 JSON pointers (`""` for the root). No variant quotes the instance:
/// an error never echoes untrusted input back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InstanceError {
    /// The instance nests deeper than the policy's `max_instance_depth`.
    #[error("instance nesting depth reaches `{depth}`, over `max_instance_depth` of `{limit}`")]
    TooDeep {
        /// The depth reached (`limit + 1`: the walk stops there).
        depth: usize,
        /// `max_instance_depth`.
        limit: usize,
    },
    /// Validating the instance would cost more than the policy's `max_check_work`.
    #[error(
        "instance would cost `{work}` work units to validate, over `max_check_work` of `{limit}`"
    )]
    TooMuchWork {
        /// The work units charged (see `max_check_work`).
        work: u64,
        /// `max_check_work`.
        limit: u64,
    },
    /// The instance does not conform to the schema (first error found).
    #[error("instance at `{instance_pointer}` fails `{keyword}` at schema `{schema_pointer}`")]
    Invalid {
        /// Where in the instance.
        instance_pointer: String,
        /// The failing keyword (`type`, `required`, `pattern`, ...).
        keyword: String,
        /// The failing keyword's location in the schema document (inside the `$ref` target
        /// when a reference led there, as `/$defs/name/type`).
        schema_pointer: String,
    },
}
