//! The 129 example instances the MCP specification ships for 2026-07-28
//! (`../shared/mcp-schemas/2026-07-28/examples/<Definition>/*.json`): each decodes into the
//! generated type of its definition with an empty report and re-encodes to the identical JSON
//! value (members, `null`s, numbers and their form). Skips with a notice when `../shared` is
//! absent.

use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use toolcall_contracts::decode;
use toolcall_contracts::mcp::v2026_07_28 as mcp;

fn examples() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/mcp-schemas/2026-07-28/examples"
    ));
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("notice: {} is absent; nothing checked", dir.display());
        None
    }
}

/// Decodes `text` as `T`, then re-encodes it: `Err` says what differs.
fn round_trip<T: DeserializeOwned + Serialize>(text: &str) -> Result<(), String> {
    let input: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let decoded = decode::<T>(text.as_bytes()).map_err(|e| format!("refused: {e}"))?;
    if !decoded.report.is_empty() {
        return Err(format!("leniency applied: {:?}", decoded.report));
    }
    let output = serde_json::to_value(&decoded.value).map_err(|e| format!("encode: {e}"))?;
    if output != input {
        return Err(format!(
            "re-encodes differently:\n  in:  {input}\n  out: {output}"
        ));
    }
    // Numbers keep their form: the re-encoded text holds the same number literals.
    let text_out = serde_json::to_string(&decoded.value).map_err(|e| e.to_string())?;
    let (mut before, mut after) = (
        numbers(&input),
        numbers(&serde_json::from_str(&text_out).unwrap_or(Value::Null)),
    );
    // Member order may differ (serde_json's `preserve_order`); the multiset of literals may not.
    before.sort();
    after.sort();
    if before != after {
        return Err("a number changed its form".to_owned());
    }
    Ok(())
}

/// Every number of a value as written (`2` and `2.0` differ).
fn numbers(value: &Value) -> Vec<String> {
    match value {
        Value::Number(n) => vec![n.to_string()],
        Value::Array(items) => items.iter().flat_map(numbers).collect(),
        Value::Object(map) => map.values().flat_map(numbers).collect(),
        _ => Vec::new(),
    }
}

macro_rules! dispatch {
    ($definition:expr, $text:expr, $($name:ident,)*) => {
        match $definition {
            $(stringify!($name) => round_trip::<mcp::$name>($text),)*
            other => Err(format!("no generated type is matched to examples of `{other}`: add it here")),
        }
    };
}

fn check(definition: &str, text: &str) -> Result<(), String> {
    dispatch!(
        definition,
        text,
        AudioContent,
        BlobResourceContents,
        BooleanSchema,
        CallToolRequest,
        CallToolRequestParams,
        CallToolResult,
        CallToolResultResponse,
        CancelledNotification,
        CancelledNotificationParams,
        ClientCapabilities,
        CompleteRequest,
        CompleteRequestParams,
        CompleteResult,
        CompleteResultResponse,
        CreateMessageRequest,
        CreateMessageRequestParams,
        CreateMessageResult,
        DiscoverRequest,
        DiscoverResult,
        DiscoverResultResponse,
        ElicitRequest,
        ElicitRequestFormParams,
        ElicitRequestURLParams,
        ElicitResult,
        EmbeddedResource,
        GetPromptRequest,
        GetPromptRequestParams,
        GetPromptResult,
        GetPromptResultResponse,
        HeaderMismatchError,
        ImageContent,
        InputRequests,
        InputRequiredResult,
        InputResponses,
        InternalError,
        InvalidParamsError,
        ListPromptsRequest,
        ListPromptsResult,
        ListPromptsResultResponse,
        ListResourceTemplatesRequest,
        ListResourceTemplatesResult,
        ListResourceTemplatesResultResponse,
        ListResourcesRequest,
        ListResourcesResult,
        ListResourcesResultResponse,
        ListRootsRequest,
        ListRootsResult,
        ListToolsRequest,
        ListToolsResult,
        ListToolsResultResponse,
        LoggingMessageNotification,
        LoggingMessageNotificationParams,
        MethodNotFoundError,
        MissingRequiredClientCapabilityError,
        ModelPreferences,
        NumberSchema,
        PaginatedRequestParams,
        ParseError,
        ProgressNotification,
        ProgressNotificationParams,
        PromptListChangedNotification,
        ReadResourceRequest,
        ReadResourceResult,
        ReadResourceResultResponse,
        Resource,
        ResourceLink,
        ResourceListChangedNotification,
        ResourceUpdatedNotification,
        ResourceUpdatedNotificationParams,
        Root,
        SamplingMessage,
        ServerCapabilities,
        StringSchema,
        SubscriptionsAcknowledgedNotification,
        SubscriptionsListenRequest,
        SubscriptionsListenResult,
        SubscriptionsListenResultResponse,
        TextContent,
        TextResourceContents,
        TitledMultiSelectEnumSchema,
        TitledSingleSelectEnumSchema,
        Tool,
        ToolListChangedNotification,
        ToolResultContent,
        ToolUseContent,
        UnsupportedProtocolVersionError,
        UntitledMultiSelectEnumSchema,
        UntitledSingleSelectEnumSchema,
    )
}

#[test]
fn every_official_example_round_trips_exactly() {
    let Some(dir) = examples() else {
        return;
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut definitions: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    definitions.sort();
    for definition in definitions {
        let name = definition
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let mut files: Vec<_> = std::fs::read_dir(&definition)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            checked += 1;
            if let Err(why) = check(&name, &text) {
                failures.push(format!(
                    "{name}/{}: {why}",
                    file.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} examples fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked, 129, "the specification ships 129 examples");
}
