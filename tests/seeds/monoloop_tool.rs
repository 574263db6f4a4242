//! The unit tests of monoloop_contracts' `tool.rs` (`../shared/seeds/002_38d3cd1a709ba28b.txt`),
//! run against `toolcall_contracts::canonical`.
//!
//! Copied verbatim except for the `use` lines: the seed's `use super::*` (its `tool.rs`, which
//! imports `Duration`, `ToolLimits` and the ids) and `use crate::id::{ChannelId, SessionId}` are
//! the imports below.

#[cfg(test)]
mod tests {
    use std::time::Duration;
    use toolcall_contracts::canonical::{
        CanonicalToolOutput, CanonicalToolResult, CanonicalToolResultOutcome, ChannelId,
        ExchangeId, JsonSchema, SessionId, SessionKey, ToolActionId, ToolExecutionClass, ToolId,
        ToolLifecycleEvent, ToolLimits, ToolName, ToolOutputContract, ToolSpec,
        ToolSuccessContract, TransactionId,
    };

    #[test]
    fn tool_spec_construction() {
        let schema = JsonSchema::try_new(serde_json::json!({
            "type": "object",
            "properties": { "q": { "type": "string" } }
        }))
        .unwrap();
        let out = ToolOutputContract {
            success: ToolSuccessContract::json(schema.clone()),
            error_data_schema: None,
        };
        let spec = ToolSpec::try_new(
            ToolId::try_new("search").unwrap(),
            ToolName::try_new("search").unwrap(),
            "Search the workspace",
            schema,
            out,
            ToolLimits::default(),
            ToolExecutionClass::AbortableAtYield {
                grace: Duration::from_secs(1),
            },
        )
        .unwrap();
        assert_eq!(spec.id.as_str(), "search");
    }

    #[test]
    fn schema_must_be_object() {
        assert!(JsonSchema::try_new(serde_json::json!([])).is_err());
    }

    #[test]
    fn lifecycle_result_serializes() {
        let tid = TransactionId::generate();
        let sk = SessionKey::new(
            ChannelId::try_new("ch").unwrap(),
            SessionId::try_new("s").unwrap(),
        );
        let result = CanonicalToolResult {
            transaction_id: tid,
            session_key: sk,
            exchange_id: ExchangeId::generate(),
            tool_action_id: ToolActionId::new("a1"),
            tool_id: ToolId::try_new("t").unwrap(),
            provider_tool_call_id: "p1".into(),
            request_ordinal: 0,
            outcome: CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text("ok".into())),
        };
        let ev = ToolLifecycleEvent::Completed { result };
        let json = serde_json::to_string(&ev).unwrap();
        let _back: ToolLifecycleEvent = serde_json::from_str(&json).unwrap();
    }
}

/// Beyond the seed's own tests: the rest of its public API, as a seed user writes it.
mod seed_api {
    use std::time::Duration;

    use serde_json::json;
    use toolcall_contracts::canonical::{
        CanonicalToolError, CanonicalToolOutput, CanonicalToolResult, CanonicalToolResultOutcome,
        ChannelId, ExchangeId, JsonSchema, SessionId, SessionKey, ToolActionId, ToolCompletion,
        ToolContractError, ToolExecutionClass, ToolId, ToolLifecycleEvent, ToolLimits, ToolName,
        ToolOutputContract, ToolRuntimeError, ToolSpec, ToolSuccessContract, TransactionId,
    };

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    fn spec() -> Result<ToolSpec, ToolContractError> {
        let schema = JsonSchema::try_new(json!({"type": "object"}))?;
        ToolSpec::try_new(
            ToolId::try_new("search")?,
            ToolName::try_new("search")?,
            "Search the workspace",
            schema.clone(),
            ToolOutputContract {
                success: ToolSuccessContract::text("text/plain")?,
                error_data_schema: Some(schema),
            },
            ToolLimits {
                max_concurrent: 2,
                ..ToolLimits::default()
            },
            ToolExecutionClass::ProcessIsolated {
                grace: Duration::from_millis(250),
                kill_deadline: Duration::from_secs(2),
            },
        )
    }

    /// Every member of the seed's `ToolSpec` reads as a field; the bound is an associated
    /// constant.
    #[test]
    fn tool_spec_fields_read_as_in_the_seed() -> TestResult {
        let spec = spec()?;
        assert_eq!(spec.name.as_str(), "search");
        assert_eq!(spec.description, "Search the workspace");
        assert_eq!(spec.input_schema.as_value(), &json!({"type": "object"}));
        assert!(spec.output_contract.error_data_schema.is_some());
        assert!(matches!(
            &spec.output_contract.success,
            ToolSuccessContract::Text { media_type } if *media_type == "text/plain"
        ));
        assert_eq!(spec.limits.max_concurrent, 2);
        assert_eq!(
            spec.execution_class,
            ToolExecutionClass::ProcessIsolated {
                grace: Duration::from_millis(250),
                kill_deadline: Duration::from_secs(2),
            }
        );
        assert_eq!(ToolSpec::MAX_DESCRIPTION_BYTES, 4 * 1024);
        let too_long = "d".repeat(ToolSpec::MAX_DESCRIPTION_BYTES + 1);
        let fields = spec.clone().into_fields();
        assert_eq!(
            ToolSpec::try_from(toolcall_contracts::canonical::ToolSpecFields {
                description: too_long,
                ..fields
            }),
            Err(ToolContractError::DescriptionTooLong {
                length: 4097,
                max: 4096
            })
        );
        Ok(())
    }

    /// `CanonicalToolError`'s members read as fields; `try_new` keeps the seed's signature.
    #[test]
    fn tool_error_fields_read_as_in_the_seed() -> TestResult {
        let error = CanonicalToolError::try_new("not_found", "no such file", None, 1024)?;
        assert_eq!(error.code, "not_found");
        assert_eq!(error.message, "no such file");
        assert_eq!(error.data, None);
        assert!(CanonicalToolError::try_new("", "m", None, 1024).is_err());
        Ok(())
    }

    /// The seed's tuple variants, matched and built as a seed user does.
    #[test]
    fn outcomes_and_completions_are_tuple_variants() -> TestResult {
        let error = CanonicalToolError::try_new("denied", "no", Some(json!(null)), 64)?;
        let completions = [
            ToolCompletion::Succeeded(CanonicalToolOutput::Json(json!({"n": 1}))),
            ToolCompletion::DomainFailed(error.clone()),
            ToolCompletion::RuntimeFailed(ToolRuntimeError::Panicked {
                tool_id: ToolId::try_new("t")?,
            }),
        ];
        let outcomes: Vec<_> = completions
            .into_iter()
            .map(ToolCompletion::into_outcome)
            .collect();
        assert!(matches!(
            &outcomes[0],
            Ok(CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Json(v))) if *v == json!({"n": 1})
        ));
        assert_eq!(
            outcomes[1],
            Ok(CanonicalToolResultOutcome::DomainFailed(error))
        );
        assert!(matches!(
            outcomes[2],
            Err(ToolRuntimeError::Panicked { .. })
        ));
        Ok(())
    }

    /// A result always has an exchange, and its wire form carries it; ids the seed builds from
    /// a string round-trip, and an id built unchecked that would not decode is not written.
    #[test]
    fn result_wire_with_a_string_action_id() -> TestResult {
        let transaction_id = TransactionId::try_new("0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f")?;
        let exchange_id = ExchangeId::try_new("0190b6a4-8e3d-7000-8000-000000000001")?;
        let mut result = CanonicalToolResult {
            transaction_id,
            session_key: SessionKey::new(ChannelId::try_new("ch")?, SessionId::try_new("s")?),
            exchange_id,
            tool_action_id: ToolActionId::new("a1"),
            tool_id: ToolId::try_new("t")?,
            provider_tool_call_id: "p1".into(),
            request_ordinal: 0,
            outcome: CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text("ok".into())),
        };
        let wire = json!({
            "transaction_id": "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f",
            "session_key": {"channel_id": "ch", "session_id": "s"},
            "exchange_id": "0190b6a4-8e3d-7000-8000-000000000001",
            "tool_action_id": "a1",
            "tool_id": "t",
            "provider_tool_call_id": "p1",
            "request_ordinal": 0,
            "outcome": {"type": "succeeded", "output": {"type": "text", "text": "ok"}}
        });
        assert_eq!(serde_json::to_value(&result)?, wire);
        assert_eq!(serde_json::from_value::<CanonicalToolResult>(wire)?, result);

        result.tool_action_id = ToolActionId::new("a 1");
        assert_eq!(
            serde_json::to_value(&result).unwrap_err().to_string(),
            "`tool_action_id` has a character outside printable ASCII `!`..=`~` at byte 1"
        );
        let event = ToolLifecycleEvent::Completed { result };
        assert!(serde_json::to_value(&event).is_err());
        Ok(())
    }
}
