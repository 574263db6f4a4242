//! [`SchemaCache`]: compiled validators keyed by the schema's pin.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use serde_json::Value;

use super::compiled::CompiledSchema;
use super::schema::{PolicyError, SchemaPolicy};

/// Compiled validators keyed by pin (lowercase hex SHA-256 of the schema's canonical JSON), each
/// built once under one [`SchemaPolicy`]. Thread-safe: share it behind an `Arc`.
///
/// A request's `schema_pin` selects a schema inserted earlier with [`SchemaCache::get`].
/// Entries are never evicted: bound what may be inserted.
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::policy::{SchemaCache, SchemaPolicy};
///
/// let cache = SchemaCache::new(SchemaPolicy::default());
/// let pin = cache.insert(&json!({"type": "object", "required": ["path"]}))?;
/// assert_eq!(pin.len(), 64);
/// // Member order does not change the pin.
/// assert_eq!(cache.insert(&json!({"required": ["path"], "type": "object"}))?, pin);
/// assert_eq!(cache.len(), 1);
///
/// let compiled = cache.get(&pin).expect("inserted above");
/// assert!(compiled.check(&json!({"path": "/tmp/a.rs"})).is_ok());
/// # Ok::<(), toolcall_contracts::policy::PolicyError>(())
/// ```
#[derive(Debug)]
pub struct SchemaCache {
    policy: SchemaPolicy,
    entries: RwLock<HashMap<String, Arc<CompiledSchema>>>,
    /// Held while compiling, so that concurrent inserts of one schema compile it once.
    building: Mutex<()>,
}

impl SchemaCache {
    /// An empty cache whose schemas compile under `policy`.
    #[must_use]
    pub fn new(policy: SchemaPolicy) -> Self {
        Self {
            policy,
            entries: RwLock::new(HashMap::new()),
            building: Mutex::new(()),
        }
    }

    /// The policy schemas compile under.
    #[must_use]
    pub fn policy(&self) -> &SchemaPolicy {
        &self.policy
    }

    /// Compiles `schema` unless a schema with the same pin is cached, and returns the pin.
    ///
    /// # Errors
    /// Every [`PolicyError`] of [`SchemaPolicy::compile`]; nothing is cached then.
    pub fn insert(&self, schema: &Value) -> Result<String, PolicyError> {
        self.insert_compiled(schema).map(|(pin, _)| pin)
    }

    /// As [`SchemaCache::insert`], also returning the compiled schema.
    ///
    /// # Errors
    /// Every [`PolicyError`] of [`SchemaPolicy::compile`]; nothing is cached then.
    pub fn insert_compiled(
        &self,
        schema: &Value,
    ) -> Result<(String, Arc<CompiledSchema>), PolicyError> {
        let pin = self.policy.pin(schema)?;
        if let Some(compiled) = self.get(&pin) {
            return Ok((pin, compiled));
        }
        let _building = self.building.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(compiled) = self.get(&pin) {
            return Ok((pin, compiled));
        }
        let compiled = Arc::new(self.policy.compile_pinned(schema, pin.clone())?);
        self.entries
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(pin.clone(), Arc::clone(&compiled));
        Ok((pin, compiled))
    }

    /// The compiled schema pinned as `pin` (lowercase hex), if inserted.
    #[must_use]
    pub fn get(&self, pin: &str) -> Option<Arc<CompiledSchema>> {
        self.entries
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(pin)
            .cloned()
    }

    /// Number of cached schemas.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Whether the cache is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for SchemaCache {
    /// An empty cache under [`SchemaPolicy::default`].
    fn default() -> Self {
        Self::new(SchemaPolicy::default())
    }
}
