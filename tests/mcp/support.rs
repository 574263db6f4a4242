//! What the MCP 2026-07-28 example tests share (`mcp_examples`, `mcp_differential`): the 129
//! example instances the specification ships, read from
//! `../shared/mcp-schemas/2026-07-28/examples/<Definition>/*.json`, and the definitions they are
//! examples of.

use std::path::PathBuf;

/// An example: `<Definition>/<file>`, the definition, and its text.
pub struct Example {
    pub name: String,
    pub definition: String,
    pub text: String,
}

/// Every example, by definition then file name; `None` (with a notice) when `../shared` is
/// absent (a failure under CI).
pub fn examples() -> Option<Vec<Example>> {
    let dir = toolcall_test_support::shared("mcp-schemas/2026-07-28/examples")?;
    let sorted = |dir: &std::path::Path| {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        paths.sort();
        paths
    };
    let mut out = Vec::new();
    for definition in sorted(&dir) {
        let def = definition
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for file in sorted(&definition) {
            out.push(Example {
                name: format!("{def}/{}", file.file_name().unwrap().to_string_lossy()),
                definition: def.clone(),
                text: std::fs::read_to_string(&file).unwrap(),
            });
        }
    }
    Some(out)
}

/// Calls `$callback!($args... Name, Name, ...,)` with every definition the examples are of,
/// except `ElicitRequestURLParams` (which `rust-mcp-schema` spells otherwise: each caller
/// matches it itself).
macro_rules! with_example_definitions {
    ($callback:ident!($($args:tt)*)) => {
        $callback! {
            $($args)*
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
        }
    };
}
pub(crate) use with_example_definitions;
