//! Merging a [`ToolCallUpdate`] into the [`ToolCall`] it updates (ACP v1 semantics).

use super::{ToolCall, ToolCallUpdate};
use crate::MaybeUndefined;

impl ToolCall {
    /// Applies `update` to this tool call, with ACP v1 semantics.
    ///
    /// For every member of the update: absent or `null` leaves the field unchanged (real agents
    /// send `null` for every unchanged member), a value replaces it. `content` and `locations`
    /// are replaced as a whole, not extended. `_meta` is replaced too. The update's `toolCallId`
    /// is not checked against this call's: correlating them is the caller's job.
    ///
    /// ACP v2 changes this: there, `null` clears the field. This method implements v1 only.
    ///
    /// Source: ACP v1 "Tool Calls" section, *Updating*
    /// (<https://agentclientprotocol.com/protocol/v1/tool-calls#updating>).
    ///
    /// ```
    /// use toolcall_contracts::acp::{ToolCall, ToolCallStatus, ToolCallUpdate};
    /// let mut call: ToolCall = serde_json::from_str(
    ///     r#"{"toolCallId":"c1","title":"Read file","status":"pending"}"#,
    /// ).unwrap();
    /// let update: ToolCallUpdate = serde_json::from_str(
    ///     r#"{"toolCallId":"c1","title":null,"status":"completed"}"#,
    /// ).unwrap();
    /// call.apply(&update);
    /// assert_eq!(call.title, "Read file");
    /// assert_eq!(call.status, Some(ToolCallStatus::Completed));
    /// ```
    pub fn apply(&mut self, update: &ToolCallUpdate) {
        if let MaybeUndefined::Value(title) = &update.title {
            self.title.clone_from(title);
        }
        replace(&mut self.name, &update.name);
        if let MaybeUndefined::Value(kind) = &update.kind {
            self.kind = Some(*kind);
        }
        if let MaybeUndefined::Value(status) = &update.status {
            self.status = Some(*status);
        }
        if let MaybeUndefined::Value(content) = &update.content {
            self.content = Some(content.clone());
        }
        if let MaybeUndefined::Value(locations) = &update.locations {
            self.locations = Some(locations.clone());
        }
        replace(&mut self.raw_input, &update.raw_input);
        replace(&mut self.raw_output, &update.raw_output);
        replace(&mut self.meta, &update.meta);
    }
}

/// A value in the update replaces the field; absent and `null` leave it.
fn replace<T: Clone>(field: &mut MaybeUndefined<T>, update: &MaybeUndefined<T>) {
    if let MaybeUndefined::Value(value) = update {
        *field = MaybeUndefined::Value(value.clone());
    }
}
