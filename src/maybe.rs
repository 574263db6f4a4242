//! [`MaybeUndefined`]: a member that is absent, `null`, or a value.

/// The three states of an optional member whose schema admits `null`.
///
/// ACP distinguishes them: in a `ToolCallUpdate`, `"title": null` and no `title` are different
/// messages on the wire, and this type keeps them apart through decode and encode. On the wire:
/// `Undefined` is no member at all (the field is skipped when encoding), `Null` is `null`,
/// `Value(v)` is `v`.
///
/// ```
/// use toolcall_contracts::MaybeUndefined;
/// let title: MaybeUndefined<String> = serde_json::from_str("null").unwrap();
/// assert_eq!(title, MaybeUndefined::Null);
/// assert_eq!(serde_json::to_string(&MaybeUndefined::Value(3)).unwrap(), "3");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum MaybeUndefined<T> {
    /// The member is absent.
    #[default]
    Undefined,
    /// The member is present with the value `null`.
    Null,
    /// The member is present with a value.
    Value(T),
}

impl<T> MaybeUndefined<T> {
    /// Whether the member is absent (used to skip it when encoding).
    #[must_use]
    pub const fn is_undefined(&self) -> bool {
        matches!(self, Self::Undefined)
    }

    /// Whether the member is `null`.
    #[must_use]
    pub const fn is_null(&self) -> bool {
        matches!(self, Self::Null)
    }

    /// The value, if any (`None` for both absent and `null`).
    #[must_use]
    pub const fn value(&self) -> Option<&T> {
        match self {
            Self::Value(v) => Some(v),
            _ => None,
        }
    }

    /// Converts into the value, if any (`None` for both absent and `null`).
    #[must_use]
    pub fn into_value(self) -> Option<T> {
        match self {
            Self::Value(v) => Some(v),
            _ => None,
        }
    }

    /// Borrows the contents.
    #[must_use]
    pub const fn as_ref(&self) -> MaybeUndefined<&T> {
        match self {
            Self::Undefined => MaybeUndefined::Undefined,
            Self::Null => MaybeUndefined::Null,
            Self::Value(v) => MaybeUndefined::Value(v),
        }
    }
}

impl MaybeUndefined<serde_json::Value> {
    /// A present JSON value: `Null` for `Value::Null` (the `null` state, as decoding gives it),
    /// `Value(value)` otherwise, so that a member set this way decodes back equal.
    #[must_use]
    pub fn from_json(value: serde_json::Value) -> Self {
        match value {
            serde_json::Value::Null => Self::Null,
            value => Self::Value(value),
        }
    }
}

impl MaybeUndefined<crate::JsonValue> {
    /// A present JSON value: `Null` for `JsonValue::Null` (the `null` state, as decoding gives
    /// it), `Value(value)` otherwise, so that a member set this way decodes back equal.
    #[must_use]
    pub fn from_json_value(value: crate::JsonValue) -> Self {
        match value {
            crate::JsonValue::Null => Self::Null,
            value => Self::Value(value),
        }
    }
}

impl<T> From<T> for MaybeUndefined<T> {
    fn from(value: T) -> Self {
        Self::Value(value)
    }
}

impl<T> From<Option<T>> for MaybeUndefined<T> {
    /// `None` becomes `Null`: an explicit `Option` says the member is present.
    fn from(value: Option<T>) -> Self {
        value.map_or(Self::Null, Self::Value)
    }
}

impl<T: serde::Serialize> serde::Serialize for MaybeUndefined<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Value(v) => v.serialize(s),
            Self::Undefined | Self::Null => s.serialize_none(),
        }
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for MaybeUndefined<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(d).map(Into::into)
    }
}
