//! Compatibility diff of two JSON Schema documents, or of two bundles of them: what `toolcall
//! schemas diff OLD NEW` prints. The diff is `toolcall_schema::diff`, re-exported here; its
//! documentation describes the two directions a change is classified for and what is compared.
//!
//! ```
//! use serde_json::json;
//! use toolcall_contracts::schema_diff::{diff, ChangeKind};
//!
//! let old = json!({"$defs": {"A": {"type": "object"}}});
//! let new = json!({"$defs": {"A": {"type": "object", "required": ["kind"]}}});
//! assert_eq!(diff(&old, &new)[0].kind, ChangeKind::BecameRequired);
//! ```

pub use toolcall_schema::diff::{diff, diff_paths, Change, ChangeKind, Class, DiffError, Summary};
