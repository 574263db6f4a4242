//! [`ToolSpec`]: what a tool is (`schema/canonical/tool-spec.schema.json`).

use std::fmt;
use std::str::FromStr;

use super::error::{check_plain_text, first_control, ToolContractError};
use super::ids::{ToolId, ToolName};
use super::limits::{ToolExecutionClass, ToolLimits};
use super::schema::JsonSchema;
use super::wire;

/// Most bytes (UTF-8) a tool description may hold: 4096.
pub const MAX_DESCRIPTION_BYTES: usize = 4096;

/// Most bytes (UTF-8) a [`MediaType`] may hold: 128.
pub const MAX_MEDIA_TYPE_BYTES: usize = 128;

/// Media type of a text output, such as `text/plain` or `text/markdown; charset=utf-8`: 1 to
/// [`MAX_MEDIA_TYPE_BYTES`] bytes without a control character. Its grammar (RFC 6838) is not
/// checked.
///
/// On the wire, a string (`$defs/MediaType` in `schema/canonical/tool-spec.schema.json`):
///
/// ```
/// use toolcall_contracts::canonical::MediaType;
///
/// assert_eq!(MediaType::try_new("text/markdown")?.as_str(), "text/markdown");
/// assert_eq!(
///     MediaType::try_new("").unwrap_err().to_string(),
///     "`media_type` is empty"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(try_from = "String")]
pub struct MediaType(String);

impl MediaType {
    /// Checks `value` and wraps it.
    ///
    /// # Errors
    /// [`ToolContractError::InvalidMediaType`] when `value` is empty, longer than
    /// [`MAX_MEDIA_TYPE_BYTES`] or has a control character.
    pub fn try_new(value: impl Into<String>) -> Result<Self, ToolContractError> {
        let value = value.into();
        check_plain_text(&value, MAX_MEDIA_TYPE_BYTES)
            .map_err(|violation| ToolContractError::InvalidMediaType { violation })?;
        Ok(Self(value))
    }

    /// The media type, as on the wire.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for MediaType {
    type Error = ToolContractError;
    fn try_from(value: String) -> Result<Self, ToolContractError> {
        Self::try_new(value)
    }
}

impl TryFrom<&str> for MediaType {
    type Error = ToolContractError;
    fn try_from(value: &str) -> Result<Self, ToolContractError> {
        Self::try_new(value)
    }
}

impl FromStr for MediaType {
    type Err = ToolContractError;
    fn from_str(value: &str) -> Result<Self, ToolContractError> {
        Self::try_new(value)
    }
}

impl From<MediaType> for String {
    fn from(media_type: MediaType) -> String {
        media_type.0
    }
}

impl PartialEq<str> for MediaType {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for MediaType {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl AsRef<str> for MediaType {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for MediaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl serde::Serialize for MediaType {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// What a successful call returns: JSON valid against a schema, or text of a media type.
///
/// On the wire, an object tagged by `type` (`$defs/ToolSuccessContract` in
/// `schema/canonical/tool-spec.schema.json`):
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::{JsonSchema, ToolSuccessContract};
///
/// let json_output = ToolSuccessContract::json(JsonSchema::try_new(json!({"type": "object"}))?);
/// assert_eq!(
///     serde_json::to_value(&json_output)?,
///     json!({"type": "json", "schema": {"type": "object"}})
/// );
/// let text_output = ToolSuccessContract::text("text/markdown")?;
/// assert_eq!(
///     serde_json::to_value(&text_output)?,
///     json!({"type": "text", "media_type": "text/markdown"})
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(
    try_from = "wire::ToolSuccessContract",
    into = "wire::ToolSuccessContract"
)]
pub enum ToolSuccessContract {
    /// JSON output, valid against `schema` (`"type": "json"`).
    Json {
        /// JSON Schema of the output (`schema`; draft-07, 2019-09 or 2020-12, see
        /// [`JsonSchema`]).
        schema: JsonSchema,
    },
    /// Text output of a media type (`"type": "text"`).
    Text {
        /// Media type of the text (`media_type`).
        media_type: MediaType,
    },
}

impl ToolSuccessContract {
    /// JSON output valid against `schema`.
    #[must_use]
    pub fn json(schema: JsonSchema) -> Self {
        Self::Json { schema }
    }

    /// Text output of `media_type`.
    ///
    /// # Errors
    /// [`ToolContractError::InvalidMediaType`] as [`MediaType::try_new`].
    pub fn text(media_type: impl Into<String>) -> Result<Self, ToolContractError> {
        Ok(Self::Text {
            media_type: MediaType::try_new(media_type)?,
        })
    }
}

impl TryFrom<wire::ToolSuccessContract> for ToolSuccessContract {
    type Error = ToolContractError;
    fn try_from(wire: wire::ToolSuccessContract) -> Result<Self, ToolContractError> {
        Ok(match wire {
            wire::ToolSuccessContract::Json(w) => Self::json(JsonSchema::try_new(w.schema)?),
            wire::ToolSuccessContract::Text(w) => Self::text(w.media_type)?,
        })
    }
}

impl From<ToolSuccessContract> for wire::ToolSuccessContract {
    fn from(contract: ToolSuccessContract) -> Self {
        match contract {
            ToolSuccessContract::Json { schema } => Self::Json(wire::ToolSuccessContractJson {
                schema: schema.into_value(),
            }),
            ToolSuccessContract::Text { media_type } => Self::Text(wire::ToolSuccessContractText {
                media_type: media_type.0,
            }),
        }
    }
}

/// What a tool returns: its success output, and the schema of the `data` of its domain errors.
///
/// On the wire (`$defs/ToolOutputContract` in `schema/canonical/tool-spec.schema.json`),
/// `error_data_schema` is absent when `None`; a `null` decodes as `None` too (the schema does
/// not allow it):
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::ToolOutputContract;
///
/// let wire = json!({
///     "success": {"type": "text", "media_type": "text/plain"},
///     "error_data_schema": {"type": "object"}
/// });
/// let contract: ToolOutputContract = serde_json::from_value(wire.clone())?;
/// assert!(contract.error_data_schema.is_some());
/// assert_eq!(serde_json::to_value(&contract)?, wire);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(
    try_from = "wire::ToolOutputContract",
    into = "wire::ToolOutputContract"
)]
pub struct ToolOutputContract {
    /// What a successful call returns (`success`).
    pub success: ToolSuccessContract,
    /// JSON Schema (any [`JsonSchema`] dialect) of the `data` of a domain error; `None`: the
    /// `data` of the tool's domain errors is not constrained (`error_data_schema`).
    pub error_data_schema: Option<JsonSchema>,
}

impl TryFrom<wire::ToolOutputContract> for ToolOutputContract {
    type Error = ToolContractError;
    fn try_from(wire: wire::ToolOutputContract) -> Result<Self, ToolContractError> {
        Ok(Self {
            success: wire.success.try_into()?,
            error_data_schema: wire
                .error_data_schema
                .map(|schema| JsonSchema::from_member(schema, "error_data_schema"))
                .transpose()?,
        })
    }
}

impl From<ToolOutputContract> for wire::ToolOutputContract {
    fn from(contract: ToolOutputContract) -> Self {
        Self {
            success: contract.success.into(),
            error_data_schema: contract.error_data_schema.map(JsonSchema::into_value),
        }
    }
}

/// What a tool is: what the runtime registers, advertises to a model, and enforces around each
/// call. Built by [`ToolSpec::try_new`] or decoded, both through the same checks. Its members
/// are read as fields (`spec.id`, `spec.limits.max_concurrent`: a `ToolSpec` dereferences to its
/// [`ToolSpecFields`]) or with the accessors, and are never assigned, so a `ToolSpec` is always
/// valid.
///
/// On the wire (`$defs/ToolSpec` in `schema/canonical/tool-spec.schema.json`):
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::ToolSpec;
///
/// let wire = json!({
///     "id": "github/search@2",
///     "name": "github.search",
///     "description": "Search issues by text.",
///     "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}},
///     "output_contract": {"success": {"type": "json", "schema": {"type": "array"}}},
///     "limits": {
///         "max_concurrent": 4,
///         "max_input_bytes": 65536,
///         "max_output_bytes": 1048576,
///         "execution_deadline_ms": 10000
///     },
///     "execution_class": {"type": "abortable_at_yield", "grace_ms": 250}
/// });
/// let spec: ToolSpec = serde_json::from_value(wire.clone())?;
/// assert_eq!(spec.name.as_str(), "github.search");
/// assert_eq!(spec.limits().execution_deadline.as_secs(), 10);
/// assert_eq!(serde_json::to_value(&spec)?, wire);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(try_from = "wire::ToolSpec")]
pub struct ToolSpec {
    fields: ToolSpecFields,
}

/// The members of a [`ToolSpec`], which dereferences to them: read `spec.id`,
/// `spec.description`... as fields. A `ToolSpecFields` becomes a `ToolSpec` only through the
/// checks of [`ToolSpec::try_new`] (`ToolSpec::try_from(fields)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolSpecFields {
    /// Stable id of the tool in the runtime's registry (`id`).
    pub id: ToolId,
    /// Name of the tool as the model sees it (`name`).
    pub name: ToolName,
    /// What the tool does, for the model: at most [`ToolSpec::MAX_DESCRIPTION_BYTES`] bytes, no
    /// control character (`description`).
    pub description: String,
    /// JSON Schema 2020-12 of a call's `arguments` (`input_schema`).
    pub input_schema: JsonSchema,
    /// What the tool returns (`output_contract`).
    pub output_contract: ToolOutputContract,
    /// Resource and time limits of each call (`limits`).
    pub limits: ToolLimits,
    /// How the tool runs, and so what cancelling a call guarantees (`execution_class`).
    pub execution_class: ToolExecutionClass,
}

impl std::ops::Deref for ToolSpec {
    type Target = ToolSpecFields;
    fn deref(&self) -> &ToolSpecFields {
        &self.fields
    }
}

impl TryFrom<ToolSpecFields> for ToolSpec {
    type Error = ToolContractError;
    /// # Errors
    /// As [`ToolSpec::try_new`].
    fn try_from(fields: ToolSpecFields) -> Result<Self, ToolContractError> {
        Self::try_new(
            fields.id,
            fields.name,
            fields.description,
            fields.input_schema,
            fields.output_contract,
            fields.limits,
            fields.execution_class,
        )
    }
}

impl ToolSpec {
    /// Most bytes (UTF-8) a description may hold: 4096 (the module constant
    /// [`MAX_DESCRIPTION_BYTES`]).
    pub const MAX_DESCRIPTION_BYTES: usize = MAX_DESCRIPTION_BYTES;

    /// Checks the parts that their own types do not and builds the spec.
    ///
    /// # Errors
    /// The first failing check, in this order:
    /// - [`ToolContractError::DescriptionTooLong`] when `description` is longer than
    ///   [`MAX_DESCRIPTION_BYTES`] (4096) bytes;
    /// - [`ToolContractError::ControlCharacter`] naming `description` when it has a control
    ///   character (Unicode `Cc`, tab and line breaks included); an empty description is
    ///   allowed;
    /// - [`ToolContractError::InvalidLimits`] when a limit is zero or out of range
    ///   ([`ToolLimits::validate`]);
    /// - [`ToolContractError::InvalidCancellationGrace`] when a grace or kill deadline is zero
    ///   or out of range ([`ToolExecutionClass::validate`]).
    pub fn try_new(
        id: ToolId,
        name: ToolName,
        description: impl Into<String>,
        input_schema: JsonSchema,
        output_contract: ToolOutputContract,
        limits: ToolLimits,
        execution_class: ToolExecutionClass,
    ) -> Result<Self, ToolContractError> {
        let description = description.into();
        if description.len() > MAX_DESCRIPTION_BYTES {
            return Err(ToolContractError::DescriptionTooLong {
                length: description.len(),
                max: MAX_DESCRIPTION_BYTES,
            });
        }
        if let Some(index) = first_control(&description) {
            return Err(ToolContractError::ControlCharacter {
                field: "description",
                index,
            });
        }
        limits.validate()?;
        execution_class.validate()?;
        Ok(Self {
            fields: ToolSpecFields {
                id,
                name,
                description,
                input_schema,
                output_contract,
                limits,
                execution_class,
            },
        })
    }

    /// The members, by value.
    #[must_use]
    pub fn into_fields(self) -> ToolSpecFields {
        self.fields
    }

    /// Stable id of the tool in the runtime's registry (`id`).
    #[must_use]
    pub fn id(&self) -> &ToolId {
        &self.fields.id
    }

    /// Name of the tool as the model sees it (`name`).
    #[must_use]
    pub fn name(&self) -> &ToolName {
        &self.fields.name
    }

    /// What the tool does, for the model: at most [`MAX_DESCRIPTION_BYTES`] bytes, no control
    /// character (`description`).
    #[must_use]
    pub fn description(&self) -> &str {
        &self.fields.description
    }

    /// JSON Schema of a call's `arguments` (`input_schema`; draft-07, 2019-09 or 2020-12, see
    /// [`JsonSchema`]).
    #[must_use]
    pub fn input_schema(&self) -> &JsonSchema {
        &self.fields.input_schema
    }

    /// What the tool returns (`output_contract`).
    #[must_use]
    pub fn output_contract(&self) -> &ToolOutputContract {
        &self.fields.output_contract
    }

    /// Resource and time limits of each call (`limits`).
    #[must_use]
    pub fn limits(&self) -> &ToolLimits {
        &self.fields.limits
    }

    /// How the tool runs, and so what cancelling a call guarantees (`execution_class`).
    #[must_use]
    pub fn execution_class(&self) -> &ToolExecutionClass {
        &self.fields.execution_class
    }
}

impl TryFrom<wire::ToolSpec> for ToolSpec {
    type Error = ToolContractError;
    fn try_from(wire: wire::ToolSpec) -> Result<Self, ToolContractError> {
        Self::try_new(
            ToolId::try_new(wire.id).map_err(|e| e.at("id"))?,
            ToolName::try_new(wire.name).map_err(|e| e.at("name"))?,
            wire.description,
            JsonSchema::from_member(wire.input_schema, "input_schema")?,
            wire.output_contract.try_into()?,
            wire.limits.try_into()?,
            wire.execution_class.try_into()?,
        )
    }
}

impl serde::Serialize for ToolSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // `try_new` checked the limits and the class, so neither conversion fails.
        let error = serde::ser::Error::custom;
        let fields = &self.fields;
        let wire = wire::ToolSpec {
            id: fields.id.to_string(),
            name: fields.name.to_string(),
            description: fields.description.clone(),
            input_schema: fields.input_schema.as_value().clone(),
            output_contract: fields.output_contract.clone().into(),
            limits: fields.limits.to_wire().map_err(error)?,
            execution_class: fields.execution_class.to_wire().map_err(error)?,
        };
        serde::Serialize::serialize(&wire, serializer)
    }
}
