// A small program written against the types json-schema-to-typescript generates from the
// bundle (check.mjs copies it beside them and type-checks it with `tsc --noEmit`). It shows
// what a TypeScript user gets: literal-tagged unions that narrow on their tag, `?:` for optional
// members, `| null` where ACP allows null.

import type * as acp from "./types/acp";
import type * as canonical from "./types/canonical";
import type * as route from "./types/route";

/** A route body for `name`, with an idempotency key. */
export function request(name: string, args: Record<string, unknown>, callKey: string): route.ToolCallRequest {
  return { name, arguments: args, call_key: callKey };
}

/** One line describing an ACP session update. */
export function describeUpdate(notification: acp.SessionNotification): string {
  const update = notification.update;
  switch (update.sessionUpdate) {
    case "tool_call":
      return `${notification.sessionId}: tool call ${update.toolCallId} "${update.title}"`;
    case "tool_call_update":
      return `${notification.sessionId}: ${update.toolCallId} is ${update.status ?? "unchanged"}`;
    default:
      return `${notification.sessionId}: ${update.sessionUpdate}`;
  }
}

/** The option a permission response selected, if any. */
export function selectedOption(response: acp.RequestPermissionResponse): string | null {
  const outcome = response.outcome;
  return outcome.outcome === "selected" ? outcome.optionId : null;
}

/** How long a cancelled call of this tool may take to stop, in milliseconds. */
export function stopBudgetMs(spec: canonical.ToolSpec): number {
  const cls = spec.execution_class;
  switch (cls.type) {
    case "process_isolated":
      return cls.grace_ms + cls.kill_deadline_ms;
    case "cooperative_in_process":
    case "abortable_at_yield":
      return cls.grace_ms;
  }
}

/** The text a model sees for a completed call. */
export function resultText(result: canonical.CanonicalToolResult): string {
  const outcome = result.outcome;
  if (outcome.type === "domain_failed") {
    return `${outcome.error.code}: ${outcome.error.message}`;
  }
  return outcome.output.type === "text" ? outcome.output.text : JSON.stringify(outcome.output.value);
}

/** The runtime error code of a lifecycle event, if it is a runtime failure. */
export function runtimeError(event: canonical.ToolLifecycleEvent): canonical.ToolRuntimeErrorCode | null {
  return event.type === "runtime_failed" ? event.code : null;
}
