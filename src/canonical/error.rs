//! Why a canonical value was refused: [`ToolContractError`] and the [`TextViolation`] it carries.

use crate::policy::Dialect;

/// What is wrong with a text value (an id, a media type, an error code or message).
///
/// Lengths and indexes count bytes of UTF-8, never characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum TextViolation {
    /// The value has no bytes.
    #[error("is empty")]
    Empty,
    /// The value is longer than its limit.
    #[error("is {length} bytes, more than the limit of {max}")]
    TooLong {
        /// Length of the value, in bytes.
        length: usize,
        /// The limit, in bytes.
        max: usize,
    },
    /// The value has a control character (Unicode category `Cc`: U+0000..=U+001F and
    /// U+007F..=U+009F, so also a tab or a line break).
    #[error("has a control character at byte {index}")]
    ControlCharacter {
        /// Byte offset of the first control character.
        index: usize,
    },
    /// The value has a character outside its alphabet.
    #[error("has a character outside {allowed} at byte {index}")]
    InvalidCharacter {
        /// Byte offset of the first character outside the alphabet.
        index: usize,
        /// The alphabet, for the message (such as ``printable ASCII `!`..=`~` ``).
        allowed: &'static str,
    },
    /// The value does not have the required form.
    #[error("is not {expected}")]
    Malformed {
        /// The required form, for the message (such as `a lowercase hyphenated version 7 UUID`).
        expected: &'static str,
    },
}

/// Why a canonical value was refused, by a constructor (`try_new`) or by decoding: every check a
/// constructor makes also runs when the type is deserialized, and the decode error's message is
/// this error's message.
///
/// Every variant names the wire member (`field`, or the member the variant is about): decoding
/// names the member the value came from (`name` of a [`super::ToolSpec`], `tool_name` of a
/// [`super::ToolCall`]); a constructor names the member its type usually fills.
///
/// Exhaustive: the checks are the canonical contract, so a new check is a breaking change of the
/// contract and of this enum alike.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolContractError {
    /// A member the canonical model requires is absent (the published schema marks it
    /// optional: `exchange_id` of a [`super::CanonicalToolResult`]).
    #[error("`{field}` is missing")]
    MissingMember {
        /// Wire member that is absent (`exchange_id`).
        field: &'static str,
    },
    /// An id is empty, too long, has a character outside its alphabet or is not of its form.
    #[error("`{field}` {violation}")]
    InvalidId {
        /// Wire member of the id (`tool_id`, `name`, `transaction_id`...).
        field: &'static str,
        /// What is wrong with it.
        violation: TextViolation,
    },
    /// A JSON Schema is not a JSON object (a boolean schema, or not a schema at all).
    #[error("`{field}` must be a JSON object, found {found}")]
    SchemaNotObject {
        /// Wire member of the schema (`schema`, `input_schema`, `error_data_schema`).
        field: &'static str,
        /// What was found: `an array`, `a string`, `a number`, `a boolean` or `null`.
        found: &'static str,
    },
    /// A JSON Schema's `$schema` names no dialect with a bundled meta-schema (draft-07, 2019-09,
    /// 2020-12).
    #[error("`{field}` has `$schema` `{dialect}`, not draft-07, 2019-09 or 2020-12")]
    UnknownDialect {
        /// Wire member of the schema.
        field: &'static str,
        /// The `$schema` value (as JSON text when it is not a string).
        dialect: String,
    },
    /// A JSON Schema breaks the meta-schema of its dialect.
    #[error("`{field}` is not a valid JSON Schema {dialect} at `{pointer}`: {reason}")]
    InvalidSchema {
        /// Wire member of the schema.
        field: &'static str,
        /// The dialect it was checked as: the one its `$schema` names, 2020-12 without one.
        dialect: Dialect,
        /// RFC 6901 pointer, inside the schema, of the first offending value (empty for the
        /// root).
        pointer: String,
        /// The meta-schema's complaint, with the offending value masked as `value`.
        reason: String,
    },
    /// A JSON Schema nests objects and arrays deeper than [`super::MAX_SCHEMA_DEPTH`].
    #[error("`{field}` nests objects and arrays more than {max} levels deep")]
    SchemaTooDeep {
        /// Wire member of the schema.
        field: &'static str,
        /// The limit, in levels (the root object is level 1).
        max: usize,
    },
    /// A tool description is longer than [`super::MAX_DESCRIPTION_BYTES`].
    #[error("`description` is {length} bytes, more than the limit of {max}")]
    DescriptionTooLong {
        /// Length of the description, in bytes.
        length: usize,
        /// The limit, in bytes.
        max: usize,
    },
    /// A text that must not have one has a control character (Unicode category `Cc`).
    #[error("`{field}` has a control character at byte {index}")]
    ControlCharacter {
        /// Wire member of the text (`description`).
        field: &'static str,
        /// Byte offset of the first control character.
        index: usize,
    },
    /// A limit of [`super::ToolLimits`] is zero, larger than its wire type holds, or (for the
    /// execution deadline) not a whole number of milliseconds.
    #[error("`{field}` must be a whole number from 1 to {max}")]
    InvalidLimits {
        /// Wire member of the limit (`max_concurrent`, `max_input_bytes`, `max_output_bytes`,
        /// `execution_deadline_ms`).
        field: &'static str,
        /// The largest value allowed.
        max: u64,
    },
    /// A cancellation grace or kill deadline of [`super::ToolExecutionClass`] is zero, longer
    /// than the wire holds, or not a whole number of milliseconds.
    #[error("`{field}` must be a whole number of milliseconds from 1 to {max}")]
    InvalidCancellationGrace {
        /// Wire member of the duration (`grace_ms`, `kill_deadline_ms`).
        field: &'static str,
        /// The longest duration allowed, in milliseconds.
        max: u64,
    },
    /// A media type is empty, longer than [`super::MAX_MEDIA_TYPE_BYTES`] or has a control
    /// character.
    #[error("`media_type` {violation}")]
    InvalidMediaType {
        /// What is wrong with it.
        violation: TextViolation,
    },
    /// A domain error code is empty, longer than [`super::MAX_ERROR_CODE_BYTES`] or has a control
    /// character.
    #[error("`code` {violation}")]
    InvalidErrorCode {
        /// What is wrong with it.
        violation: TextViolation,
    },
    /// A domain error message is empty, longer than its limit or has a control character.
    #[error("`message` {violation}")]
    InvalidErrorMessage {
        /// What is wrong with it.
        violation: TextViolation,
    },
}

impl ToolContractError {
    /// The same error, naming `field` as the member (for a value decoded from a member other
    /// than the one its type usually fills).
    pub(crate) fn at(self, field: &'static str) -> Self {
        match self {
            Self::InvalidId { violation, .. } => Self::InvalidId { field, violation },
            Self::SchemaNotObject { found, .. } => Self::SchemaNotObject { field, found },
            Self::UnknownDialect { dialect, .. } => Self::UnknownDialect { field, dialect },
            Self::InvalidSchema {
                dialect,
                pointer,
                reason,
                ..
            } => Self::InvalidSchema {
                field,
                dialect,
                pointer,
                reason,
            },
            Self::SchemaTooDeep { max, .. } => Self::SchemaTooDeep { field, max },
            other => other,
        }
    }
}

/// The first problem of a text of 1 to `max` bytes without control characters.
pub(crate) fn check_plain_text(value: &str, max: usize) -> Result<(), TextViolation> {
    check_length(value, max)?;
    match first_control(value) {
        Some(index) => Err(TextViolation::ControlCharacter { index }),
        None => Ok(()),
    }
}

/// [`TextViolation::Empty`] or [`TextViolation::TooLong`] for a text outside 1 to `max` bytes.
pub(crate) fn check_length(value: &str, max: usize) -> Result<(), TextViolation> {
    if value.is_empty() {
        Err(TextViolation::Empty)
    } else if value.len() > max {
        Err(TextViolation::TooLong {
            length: value.len(),
            max,
        })
    } else {
        Ok(())
    }
}

/// Byte offset of the first control character (Unicode category `Cc`).
pub(crate) fn first_control(value: &str) -> Option<usize> {
    value
        .char_indices()
        .find(|(_, c)| c.is_control())
        .map(|(index, _)| index)
}
