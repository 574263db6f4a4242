//! The unit tests of protocol_droid's `domain/acp/tool_call.rs`
//! (`../shared/seeds/003_2366d75de78974fb.txt`), run against `toolcall_contracts::acp`.
//!
//! The two enum tests are copied verbatim except for their `use` lines. The seed's structs are
//! plain (`pub` fields, `Option<Option<T>>` for the three-state update members); the project's
//! ACP types are generated `#[non_exhaustive]` structs built by `new` (required members) and
//! setters (optional ones), with `MaybeUndefined` for the three states. The other tests build
//! the same values that way and make the seed's assertions on the wire unchanged; each also
//! asserts the exact JSON and, where the seed only encodes, the decode back.

#[cfg(test)]
mod tests {
    use serde_json::json;
    use toolcall_contracts::acp::{
        Diff, Terminal, ToolCall, ToolCallContent, ToolCallId, ToolCallLocation, ToolCallStatus,
        ToolCallUpdate, ToolKind,
    };
    use toolcall_contracts::MaybeUndefined;

    /// The `ToolKind` enum deserialises every wire
    /// value the schema names. The wire form is a
    /// string; the typed form is a `Copy` enum.
    #[test]
    fn tool_kind_string_round_trips() -> Result<(), serde_json::Error> {
        for (variant, wire) in [
            (ToolKind::Read, "read"),
            (ToolKind::Edit, "edit"),
            (ToolKind::Delete, "delete"),
            (ToolKind::Move, "move"),
            (ToolKind::Search, "search"),
            (ToolKind::Execute, "execute"),
            (ToolKind::Think, "think"),
            (ToolKind::Fetch, "fetch"),
            (ToolKind::SwitchMode, "switch_mode"),
            (ToolKind::Other, "other"),
        ] {
            let value = serde_json::to_value(variant)?;
            assert_eq!(value, json!(wire));
            let back: ToolKind = serde_json::from_value(value)?;
            assert_eq!(back, variant);
        }
        Ok(())
    }

    /// The `ToolCallStatus` enum deserialises every
    /// wire value the schema names.
    #[test]
    fn tool_call_status_string_round_trips() -> Result<(), serde_json::Error> {
        for (variant, wire) in [
            (ToolCallStatus::Pending, "pending"),
            (ToolCallStatus::InProgress, "in_progress"),
            (ToolCallStatus::Completed, "completed"),
            (ToolCallStatus::Failed, "failed"),
        ] {
            let value = serde_json::to_value(variant)?;
            assert_eq!(value, json!(wire));
            let back: ToolCallStatus = serde_json::from_value(value)?;
            assert_eq!(back, variant);
        }
        Ok(())
    }

    /// A `ToolCall` with a `read` kind round-trips.
    /// The wire form carries the `toolCallId`, the
    /// `title`, and the optional fields.
    #[test]
    fn a_tool_call_round_trips() -> Result<(), serde_json::Error> {
        let call = ToolCall::new(ToolCallId::from("call-1"), "Reading config")
            .name("read_file")
            .kind(ToolKind::Read)
            .status(ToolCallStatus::InProgress)
            .locations(vec![ToolCallLocation::new("/etc/hosts").line(1_u32)]);
        let value = serde_json::to_value(&call)?;
        assert_eq!(value.get("toolCallId"), Some(&json!("call-1")));
        assert_eq!(value.get("title"), Some(&json!("Reading config")));
        assert_eq!(value.get("kind"), Some(&json!("read")));
        assert_eq!(
            value,
            json!({
                "toolCallId": "call-1",
                "title": "Reading config",
                "name": "read_file",
                "kind": "read",
                "status": "in_progress",
                "locations": [{"path": "/etc/hosts", "line": 1}]
            })
        );
        let back: ToolCall = serde_json::from_value(value)?;
        assert_eq!(back, call);
        Ok(())
    }

    /// A `ToolCallUpdate` with a `Some(None)` field
    /// round-trips as an explicit `null` on the
    /// wire. The `Option<Option<T>>` shape is the
    /// typed form's encoding of patch-style
    /// semantics.
    #[test]
    fn a_tool_call_update_round_trips() -> Result<(), serde_json::Error> {
        let update = ToolCallUpdate::new(ToolCallId::from("call-1"))
            .kind(ToolKind::Execute)
            .status(ToolCallStatus::Completed);
        let value = serde_json::to_value(&update)?;
        assert_eq!(value.get("toolCallId"), Some(&json!("call-1")));
        assert_eq!(value.get("kind"), Some(&json!("execute")));
        assert_eq!(value.get("status"), Some(&json!("completed")));
        assert_eq!(
            value,
            json!({"toolCallId": "call-1", "kind": "execute", "status": "completed"})
        );
        let back: ToolCallUpdate = serde_json::from_value(value)?;
        assert_eq!(back, update);

        // The doc comment's three states: `null` clears (the seed's `Some(None)`), absent
        // leaves alone (`None`), a value sets (`Some(Some(v))`).
        let mut clearing = update;
        clearing.title = MaybeUndefined::Null;
        let value = serde_json::to_value(&clearing)?;
        assert_eq!(value.get("title"), Some(&json!(null)));
        assert_eq!(value.get("name"), None);
        let back: ToolCallUpdate = serde_json::from_value(value)?;
        assert_eq!(back.title, MaybeUndefined::Null);
        assert_eq!(back.name, MaybeUndefined::Undefined);
        Ok(())
    }

    /// The `ToolCallContent::Diff` variant carries
    /// the `path`, the optional `oldText`, and the
    /// `newText`. The `type` discriminator is `diff`.
    #[test]
    fn a_tool_call_content_diff_round_trips() -> Result<(), serde_json::Error> {
        let content = ToolCallContent::Diff(Diff::new("/tmp/example.txt", "new").old_text("old"));
        let value = serde_json::to_value(&content)?;
        assert_eq!(value.get("type"), Some(&json!("diff")));
        assert_eq!(value.get("path"), Some(&json!("/tmp/example.txt")));
        assert_eq!(value.get("oldText"), Some(&json!("old")));
        assert_eq!(value.get("newText"), Some(&json!("new")));
        assert_eq!(
            value,
            json!({"type": "diff", "path": "/tmp/example.txt", "oldText": "old", "newText": "new"})
        );
        let back: ToolCallContent = serde_json::from_value(value)?;
        assert_eq!(back, content);
        Ok(())
    }

    /// The `ToolCallContent::Terminal` variant
    /// references a `TerminalId`. The wire form is
    /// `{ "type": "terminal", "terminalId": "..." }`.
    #[test]
    fn a_tool_call_content_terminal_round_trips() -> Result<(), serde_json::Error> {
        let content = ToolCallContent::Terminal(Terminal::new("term-1"));
        let value = serde_json::to_value(&content)?;
        assert_eq!(value.get("type"), Some(&json!("terminal")));
        assert_eq!(value.get("terminalId"), Some(&json!("term-1")));
        assert_eq!(value, json!({"type": "terminal", "terminalId": "term-1"}));
        let back: ToolCallContent = serde_json::from_value(value)?;
        assert_eq!(back, content);
        Ok(())
    }
}
