//! The leniency report: where a decode applied leniency the schema declares ([`Leniency`]).

use std::fmt;

use crate::__private as rt;

/// What kind of leniency was applied (wire names in snake_case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeniencyKind {
    /// A malformed value at a property declaring `x-deserialize-default-on-error` decoded as
    /// absent.
    Defaulted,
    /// An invalid item of an array declaring `x-deserialize-skip-invalid-items` was skipped.
    SkippedItem,
    /// A union tag with no known variant decoded into the variant that keeps the raw JSON.
    UnknownVariant,
    /// A string-enum value with no known variant decoded as a catch-all (or as absent).
    UnknownValue,
}

impl LeniencyKind {
    /// Every kind, in declaration order.
    pub const ALL: [Self; 4] = [
        Self::Defaulted,
        Self::SkippedItem,
        Self::UnknownVariant,
        Self::UnknownValue,
    ];

    /// The wire name: `defaulted`, `skipped_item`, `unknown_variant` or `unknown_value`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Defaulted => "defaulted",
            Self::SkippedItem => "skipped_item",
            Self::UnknownVariant => "unknown_variant",
            Self::UnknownValue => "unknown_value",
        }
    }
}

impl fmt::Display for LeniencyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for LeniencyKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for LeniencyKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = rt::string(deserializer)?;
        Self::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
            .ok_or_else(|| serde::de::Error::unknown_variant(&name, &LENIENCY_KIND_NAMES))
    }
}

const LENIENCY_KIND_NAMES: [&str; 4] = [
    LeniencyKind::ALL[0].as_str(),
    LeniencyKind::ALL[1].as_str(),
    LeniencyKind::ALL[2].as_str(),
    LeniencyKind::ALL[3].as_str(),
];

/// One place where the decoder applied declared leniency.
///
/// JSON shape: `{"pointer": "/params/update/status", "kind": "unknown_value", "raw": "paused"}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Leniency {
    /// RFC 6901 pointer into the input, to the member or item concerned.
    pub pointer: String,
    /// What was done.
    pub kind: LeniencyKind,
    /// The JSON that was not used as given (the malformed value, skipped item or unknown tag).
    pub raw: serde_json::Value,
}

impl serde::Serialize for Leniency {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("Leniency", 3)?;
        out.serialize_field("pointer", &self.pointer)?;
        out.serialize_field("kind", &self.kind)?;
        out.serialize_field("raw", &self.raw)?;
        out.end()
    }
}

impl<'de> serde::Deserialize<'de> for Leniency {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Leniency;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object (`Leniency`)")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Leniency, A::Error> {
                let (mut pointer, mut kind, mut raw) = (None, None, None);
                while let Some(key) = map.next_key::<rt::Key<'de>>()? {
                    match &*key.0 {
                        "pointer" if pointer.is_none() => pointer = Some(map.next_value()?),
                        "kind" if kind.is_none() => kind = Some(map.next_value()?),
                        "raw" if raw.is_none() => raw = Some(map.next_value()?),
                        "pointer" => return Err(rt::duplicate("pointer")),
                        "kind" => return Err(rt::duplicate("kind")),
                        "raw" => return Err(rt::duplicate("raw")),
                        _ => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(Leniency {
                    pointer: pointer.ok_or_else(|| rt::missing("pointer"))?,
                    kind: kind.ok_or_else(|| rt::missing("kind"))?,
                    raw: raw.ok_or_else(|| rt::missing("raw"))?,
                })
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}
