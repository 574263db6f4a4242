//! Ids of the canonical model: string newtypes with a private field, checked by `try_new`,
//! `TryFrom`, `FromStr` and `Deserialize` alike (`schema/canonical/ids.schema.json`).

use std::fmt;
use std::str::FromStr;

use super::error::{check_length, TextViolation, ToolContractError};
use super::wire;

/// Most bytes a [`ToolId`], [`ChannelId`] or [`SessionId`] may hold: 128.
pub const MAX_OPAQUE_ID_BYTES: usize = 128;

/// Most characters (ASCII, so bytes) a [`ToolName`] may hold: 128.
pub const MAX_TOOL_NAME_CHARS: usize = 128;

const PRINTABLE_ASCII: &str = "printable ASCII `!`..=`~`";
const TOOL_NAME_ALPHABET: &str = "`A-Z`, `a-z`, `0-9`, `_`, `-`, `.`";
const UUID_V7: &str = "a lowercase hyphenated version 7 UUID";

/// 1 to 128 bytes, each printable ASCII 0x21..=0x7E.
fn check_opaque(value: &str) -> Result<(), TextViolation> {
    check_length(value, MAX_OPAQUE_ID_BYTES)?;
    match value.bytes().position(|b| !b.is_ascii_graphic()) {
        Some(index) => Err(TextViolation::InvalidCharacter {
            index,
            allowed: PRINTABLE_ASCII,
        }),
        None => Ok(()),
    }
}

/// The MCP tool-name rule: 1 to 128 characters of `A-Z a-z 0-9 _ - .`.
fn check_tool_name(value: &str) -> Result<(), TextViolation> {
    check_length(value, MAX_TOOL_NAME_CHARS)?;
    let allowed = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.');
    match value.bytes().position(|b| !allowed(b)) {
        Some(index) => Err(TextViolation::InvalidCharacter {
            index,
            allowed: TOOL_NAME_ALPHABET,
        }),
        None => Ok(()),
    }
}

/// Whether `value` is a lowercase hyphenated UUID of version 7 and variant RFC 9562.
fn is_uuid_v7(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(i, &b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            14 => b == b'7',
            19 => matches!(b, b'8' | b'9' | b'a' | b'b'),
            _ => b.is_ascii_digit() || (b'a'..=b'f').contains(&b),
        })
}

fn check_uuid_v7(value: &str) -> Result<(), TextViolation> {
    if is_uuid_v7(value) {
        Ok(())
    } else {
        Err(TextViolation::Malformed { expected: UUID_V7 })
    }
}

/// A string newtype: private field, `try_new`, `as_str`, conversions, serde as a string
/// (`@type`: everything but `Serialize`).
macro_rules! string_id {
    (@type $(#[$doc:meta])* $name:ident, field: $field:literal, check: $check:path) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
        #[serde(try_from = "String")]
        pub struct $name(String);

        impl $name {
            /// Checks `value` and wraps it.
            ///
            /// # Errors
            #[doc = concat!("[`ToolContractError::InvalidId`] naming `", $field, "` when `value` breaks the rule above.")]
            pub fn try_new(value: impl Into<String>) -> Result<Self, ToolContractError> {
                let value = value.into();
                match $check(&value) {
                    Ok(()) => Ok(Self(value)),
                    Err(violation) => Err(ToolContractError::InvalidId {
                        field: $field,
                        violation,
                    }),
                }
            }

            /// The id, as on the wire.
            #[must_use]
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// The id, as on the wire.
            #[must_use]
            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl TryFrom<String> for $name {
            type Error = ToolContractError;
            fn try_from(value: String) -> Result<Self, ToolContractError> {
                Self::try_new(value)
            }
        }

        impl TryFrom<&str> for $name {
            type Error = ToolContractError;
            fn try_from(value: &str) -> Result<Self, ToolContractError> {
                Self::try_new(value)
            }
        }

        impl FromStr for $name {
            type Err = ToolContractError;
            fn from_str(value: &str) -> Result<Self, ToolContractError> {
                Self::try_new(value)
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
    ($(#[$doc:meta])* $name:ident, field: $field:literal, check: $check:path) => {
        string_id!(@type $(#[$doc])* $name, field: $field, check: $check);

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.0)
            }
        }
    };
}

string_id! {
    /// Stable id of a tool in the runtime's registry: 1 to 128 bytes, each printable ASCII
    /// 0x21..=0x7E (no space, no control byte, nothing outside ASCII).
    ///
    /// On the wire, a string (`$defs/ToolId` in `schema/canonical/ids.schema.json`):
    ///
    /// ```
    /// use toolcall_contracts::canonical::ToolId;
    ///
    /// let id = ToolId::try_new("github/search@2")?;
    /// assert_eq!(serde_json::to_value(&id)?, serde_json::json!("github/search@2"));
    /// assert!(serde_json::from_value::<ToolId>(serde_json::json!("has space")).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ToolId, field: "tool_id", check: check_opaque
}

string_id! {
    /// Name of a tool as the model sees it, by the MCP tool-name rule: 1 to 128 characters, each
    /// `A-Z`, `a-z`, `0-9`, `_`, `-` or `.`.
    ///
    /// `OpenAI` and `Anthropic` tool names allow no `.` and at most 64 characters: a provider
    /// adapter maps a name to its provider's rule.
    ///
    /// On the wire, a string (`$defs/ToolName` in `schema/canonical/ids.schema.json`):
    ///
    /// ```
    /// use toolcall_contracts::canonical::ToolName;
    ///
    /// let name: ToolName = "github.search_issues".parse()?;
    /// assert_eq!(name.as_str(), "github.search_issues");
    /// assert_eq!(
    ///     ToolName::try_new("search issues").unwrap_err().to_string(),
    ///     "`tool_name` has a character outside `A-Z`, `a-z`, `0-9`, `_`, `-`, `.` at byte 6"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ToolName, field: "tool_name", check: check_tool_name
}

string_id! {
    /// Id of the channel a session belongs to (a chat platform, an API client...): 1 to 128
    /// bytes, each printable ASCII 0x21..=0x7E.
    ///
    /// On the wire, a string (`$defs/ChannelId` in `schema/canonical/ids.schema.json`).
    ///
    /// ```
    /// use toolcall_contracts::canonical::ChannelId;
    ///
    /// assert_eq!(ChannelId::try_new("slack:T024BE7LD")?.as_str(), "slack:T024BE7LD");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ChannelId, field: "channel_id", check: check_opaque
}

string_id! {
    /// Id of a session within its channel: 1 to 128 bytes, each printable ASCII 0x21..=0x7E.
    ///
    /// On the wire, a string (`$defs/SessionId` in `schema/canonical/ids.schema.json`).
    ///
    /// ```
    /// use toolcall_contracts::canonical::SessionId;
    ///
    /// assert!(SessionId::try_new("").is_err());
    /// assert_eq!(SessionId::try_new("C0123/1712345678.000100")?.as_str(), "C0123/1712345678.000100");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    SessionId, field: "session_id", check: check_opaque
}

string_id! {
    /// Id of one transaction (one dispatch, from request to result): a time-ordered UUID
    /// (version 7, RFC 9562), lowercase and hyphenated; [`TransactionId::generate`] makes one.
    ///
    /// Ids generated by one process sort (as strings, and by `Ord`) in the order they were
    /// generated.
    ///
    /// On the wire, a string (`$defs/TransactionId` in `schema/canonical/ids.schema.json`):
    ///
    /// ```
    /// use toolcall_contracts::canonical::TransactionId;
    ///
    /// let id = TransactionId::try_new("0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f")?;
    /// assert_eq!(serde_json::to_value(&id)?, "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f");
    /// // Uppercase, version 4, or no hyphens: refused.
    /// assert!(TransactionId::try_new("0190B6A4-8E3C-7C1A-9F00-3B1E2D4C5A6F").is_err());
    /// assert!(TransactionId::try_new("0190b6a4-8e3c-4c1a-9f00-3b1e2d4c5a6f").is_err());
    /// let (first, second) = (TransactionId::generate(), TransactionId::generate());
    /// assert!(first < second);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    TransactionId, field: "transaction_id", check: check_uuid_v7
}

string_id! {
    /// Id of one model exchange (one request to the model and its answer): a time-ordered UUID
    /// (version 7, RFC 9562), lowercase and hyphenated; [`ExchangeId::generate`] makes one.
    ///
    /// On the wire, a string (`$defs/ExchangeId` in `schema/canonical/ids.schema.json`).
    ///
    /// ```
    /// use toolcall_contracts::canonical::ExchangeId;
    ///
    /// let id = ExchangeId::generate();
    /// assert_eq!(ExchangeId::try_new(id.as_str())?, id);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ExchangeId, field: "exchange_id", check: check_uuid_v7
}

string_id! {
    @type
    /// Id of one tool action (one call of a transaction, from start to completion), chosen by
    /// the runtime: 1 to 128 bytes, each printable ASCII 0x21..=0x7E (the rule of [`ToolId`]).
    ///
    /// [`ToolActionId::new`] takes the string as it is, as the seed API does (`new("a1")`);
    /// [`ToolActionId::try_new`], `TryFrom`, `FromStr` and decoding check the rule, and an id
    /// built by `new` that breaks it is refused when encoded (alone or in a
    /// [`super::CanonicalToolResult`] or [`super::ToolLifecycleEvent`]), so JSON that would not
    /// decode is never written. [`ToolActionId::for_call`] derives a deterministic id from a
    /// transaction and a request ordinal (`<transaction id>:<ordinal>`), so that dispatching the
    /// same call of the same transaction again gives the same id.
    ///
    /// On the wire, a string (`$defs/ToolActionId` in `schema/canonical/ids.schema.json`):
    ///
    /// ```
    /// use toolcall_contracts::canonical::{ToolActionId, TransactionId};
    ///
    /// let action = ToolActionId::new("a1");
    /// assert_eq!(serde_json::to_value(&action)?, serde_json::json!("a1"));
    ///
    /// let transaction = TransactionId::try_new("0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f")?;
    /// let derived = ToolActionId::for_call(&transaction, 3);
    /// assert_eq!(derived.as_str(), "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f:3");
    /// assert_eq!(ToolActionId::try_new(derived.as_str())?, derived);
    ///
    /// assert!(ToolActionId::try_new("has space").is_err());
    /// let unchecked = ToolActionId::new("");
    /// assert_eq!(
    ///     serde_json::to_value(&unchecked).unwrap_err().to_string(),
    ///     "`tool_action_id` is empty"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ToolActionId, field: "tool_action_id", check: check_opaque
}

impl TransactionId {
    /// A new id from the current time: a version 7 UUID, later than every id this process
    /// generated before.
    #[must_use]
    pub fn generate() -> Self {
        Self(uuid::Uuid::now_v7().hyphenated().to_string())
    }
}

impl ExchangeId {
    /// A new id from the current time: a version 7 UUID, later than every id this process
    /// generated before.
    #[must_use]
    pub fn generate() -> Self {
        Self(uuid::Uuid::now_v7().hyphenated().to_string())
    }
}

impl ToolActionId {
    /// The id `value`, taken as it is: [`ToolActionId::validate`] (or encoding) checks it,
    /// [`ToolActionId::try_new`] builds a checked one.
    #[must_use]
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The id of the call at `request_ordinal` in `transaction`:
    /// `<transaction id>:<request_ordinal>` (at most 47 bytes, always valid).
    #[must_use]
    pub fn for_call(transaction: &TransactionId, request_ordinal: u32) -> Self {
        Self(format!("{transaction}:{request_ordinal}"))
    }

    /// Checks the rule (1 to 128 bytes of printable ASCII), for an id built by
    /// [`ToolActionId::new`].
    ///
    /// # Errors
    /// [`ToolContractError::InvalidId`] naming `tool_action_id` when the id breaks it.
    pub fn validate(&self) -> Result<(), ToolContractError> {
        check_opaque(&self.0).map_err(|violation| ToolContractError::InvalidId {
            field: "tool_action_id",
            violation,
        })
    }

    /// The wire string, when the id is valid.
    pub(crate) fn to_wire(&self) -> Result<String, ToolContractError> {
        self.validate().map(|()| self.0.clone())
    }
}

impl serde::Serialize for ToolActionId {
    /// # Errors
    /// The serializer's error carrying [`ToolActionId::validate`]'s message when the id breaks
    /// the rule: JSON that would not decode is never written.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.validate().map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(&self.0)
    }
}

/// The session a transaction runs in: a channel and a session within it.
///
/// On the wire, an object with both members (`$defs/SessionKey` in
/// `schema/canonical/ids.schema.json`):
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::{ChannelId, SessionId, SessionKey};
///
/// let key = SessionKey::new(ChannelId::try_new("slack:T024BE7LD")?, SessionId::try_new("C0123")?);
/// let wire = json!({"channel_id": "slack:T024BE7LD", "session_id": "C0123"});
/// assert_eq!(serde_json::to_value(&key)?, wire);
/// assert_eq!(serde_json::from_value::<SessionKey>(wire)?, key);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(try_from = "wire::SessionKey", into = "wire::SessionKey")]
pub struct SessionKey {
    channel_id: ChannelId,
    session_id: SessionId,
}

impl SessionKey {
    /// The key of `session_id` in `channel_id`.
    #[must_use]
    pub fn new(channel_id: ChannelId, session_id: SessionId) -> Self {
        Self {
            channel_id,
            session_id,
        }
    }

    /// The channel.
    #[must_use]
    pub fn channel_id(&self) -> &ChannelId {
        &self.channel_id
    }

    /// The session within the channel.
    #[must_use]
    pub fn session_id(&self) -> &SessionId {
        &self.session_id
    }
}

impl TryFrom<wire::SessionKey> for SessionKey {
    type Error = ToolContractError;
    fn try_from(wire: wire::SessionKey) -> Result<Self, ToolContractError> {
        Ok(Self::new(
            ChannelId::try_new(wire.channel_id)?,
            SessionId::try_new(wire.session_id)?,
        ))
    }
}

impl From<SessionKey> for wire::SessionKey {
    fn from(key: SessionKey) -> Self {
        Self {
            channel_id: key.channel_id.0,
            session_id: key.session_id.0,
        }
    }
}
