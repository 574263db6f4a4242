//! The conversion report: what a hop dropped, derived or defaulted ([`Change`]), returned with
//! every converted value ([`Converted`]).

use std::fmt;

use serde_json::{Map, Value};

/// What a conversion did to one member (wire names in snake_case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// A member of the input has no place in the target and is not in the output; `from` names
    /// it and `value` holds it as it was.
    Dropped,
    /// A member of the output was computed from the input rather than copied (a synthesized
    /// id, a projected name, a text with its control characters replaced); `from` names the
    /// source, `to` the member written and `value` what was written.
    Derived,
    /// A member the target requires was absent from the input and got a documented default;
    /// `to` names it and `value` holds the default.
    Defaulted,
}

impl ChangeKind {
    /// The wire name: `dropped`, `derived` or `defaulted`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Dropped => "dropped",
            Self::Derived => "derived",
            Self::Defaulted => "defaulted",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One member a conversion did not carry as it was.
///
/// JSON shape (`from` and `to` are RFC 6901 pointers into the input and into the output; the
/// one a kind does not use is absent):
///
/// ```
/// use serde_json::json;
/// use toolcall_hops::{Change, ChangeKind};
///
/// let change = Change::dropped("/annotations", json!({"readOnlyHint": true}), "no member");
/// assert_eq!(change.kind, ChangeKind::Dropped);
/// assert_eq!(serde_json::to_value(&change)?, json!({
///     "kind": "dropped",
///     "from": "/annotations",
///     "value": {"readOnlyHint": true},
///     "reason": "no member"
/// }));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Change {
    /// What was done.
    pub kind: ChangeKind,
    /// Pointer into the input to the member concerned (`dropped`, `derived`); absent for
    /// `defaulted`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Pointer into the output to the member written (`derived`, `defaulted`); absent for
    /// `dropped`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The dropped value, or the value written.
    pub value: Value,
    /// Why, for a log (lowercase, no trailing period).
    pub reason: String,
}

impl Change {
    /// A member of the input at `from` that the output does not carry.
    #[must_use]
    pub fn dropped(from: impl Into<String>, value: Value, reason: impl Into<String>) -> Self {
        Self {
            kind: ChangeKind::Dropped,
            from: Some(from.into()),
            to: None,
            value,
            reason: reason.into(),
        }
    }

    /// The member at `to` of the output, computed from the input at `from`.
    #[must_use]
    pub fn derived(
        from: impl Into<String>,
        to: impl Into<String>,
        value: Value,
        reason: impl Into<String>,
    ) -> Self {
        Self {
            kind: ChangeKind::Derived,
            from: Some(from.into()),
            to: Some(to.into()),
            value,
            reason: reason.into(),
        }
    }

    /// The member at `to` of the output, absent from the input, given its default `value`.
    #[must_use]
    pub fn defaulted(to: impl Into<String>, value: Value, reason: impl Into<String>) -> Self {
        Self {
            kind: ChangeKind::Defaulted,
            from: None,
            to: Some(to.into()),
            value,
            reason: reason.into(),
        }
    }

    /// The same change with `prefix` put before both pointers (`/params` and `/name` give
    /// `/params/name`): for a caller that converted a member of a larger message.
    #[must_use]
    pub fn under(mut self, from_prefix: &str, to_prefix: &str) -> Self {
        if let Some(from) = &mut self.from {
            from.insert_str(0, from_prefix);
        }
        if let Some(to) = &mut self.to {
            to.insert_str(0, to_prefix);
        }
        self
    }
}

impl fmt::Display for Change {
    /// ``dropped `/annotations`: <reason>``, ``derived `/id` -> `/tool_call_id`: <reason>``,
    /// ``defaulted `/arguments`: <reason>``; a change of the whole message (pointer `""`):
    /// `dropped: <reason>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        match (&self.from, &self.to) {
            (Some(from), Some(to)) => write!(f, " `{from}` -> `{to}`")?,
            (Some(pointer), None) | (None, Some(pointer)) if !pointer.is_empty() => {
                write!(f, " `{pointer}`")?;
            }
            _ => {}
        }
        write!(f, ": {}", self.reason)
    }
}

/// A converted value and its report: every member the conversion dropped, derived or
/// defaulted, in the order the conversion met them. An empty report: the output carries the
/// input exactly (as the conversion documents its mapping).
#[derive(Debug, Clone, PartialEq)]
pub struct Converted<T> {
    /// The value.
    pub value: T,
    /// What the conversion did not carry as it was.
    pub report: Vec<Change>,
}

impl<T> Converted<T> {
    /// `value` with an empty report.
    #[must_use]
    pub fn exact(value: T) -> Self {
        Self {
            value,
            report: Vec::new(),
        }
    }

    /// The value, the report appended to `report` (for a caller chaining hops).
    pub fn into_value(self, report: &mut Vec<Change>) -> T {
        report.extend(self.report);
        self.value
    }
}

/// The members of `map` ordered by name, so that a report lists them in the same order whatever
/// order the map keeps (serde_json's `preserve_order`).
pub(crate) fn by_name(map: Map<String, Value>) -> Vec<(String, Value)> {
    let mut members: Vec<(String, Value)> = map.into_iter().collect();
    members.sort_by(|a, b| a.0.cmp(&b.0));
    members
}

/// `value` with the members of every object in name order, so that writing it gives the same
/// text whatever order the map keeps (serde_json's `preserve_order`).
pub(crate) fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            by_name(map)
                .into_iter()
                .map(|(name, value)| (name, sorted(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}
