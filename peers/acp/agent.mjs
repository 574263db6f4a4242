// An ACP agent on the official TypeScript SDK (`@agentclientprotocol/sdk`, stable v1 entry
// point, typed API only: the SDK writes every message), speaking over stdio:
//
//   node peers/acp/agent.mjs
//
// Its prompt turns are scripted, not generated, so that every run sends the same messages:
// - the first prompt turn: a plan (every priority and status), a thought, message chunks with
//   content of each type (text, image, audio, resource link, embedded text and blob resource),
//   the available commands; tool calls of each kind (read, edit, delete, move, search, execute,
//   think, fetch, switch_mode, other), each going through its statuses, with tool-call content
//   of each type (content, diff, terminal), locations, raw input and output; a file read and a
//   file write through the client; a terminal run through the client; permission requests
//   answered with each option kind; one tool call that ends `failed`; stop reason `end_turn`;
// - the second prompt turn: a tool call waiting for permission when the client cancels
//   (`session/cancel`): the client answers the permission request `cancelled`, the agent ends
//   the call `failed` and the turn with stop reason `cancelled`.
// Logs nothing on stdout (the protocol stream); exits when the client closes its stdin.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const TINY_WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";
const KINDS = ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"];

/** Per session: the controller its `session/cancel` aborts. */
const cancels = new Map();

function update(client, sessionId, sessionUpdate) {
  return client.notify(acp.methods.client.session.update, { sessionId, update: sessionUpdate });
}

async function firstTurn(client, sessionId, cwd) {
  const send = (u) => update(client, sessionId, u);
  const entries = [
    { content: "Read the configuration", priority: "high", status: "completed" },
    { content: "Change the greeting", priority: "medium", status: "in_progress" },
    { content: "Run the tests", priority: "low", status: "pending" },
  ];
  await send({ sessionUpdate: "plan", entries });
  await send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Looking at the project first." } });
  await send({
    sessionUpdate: "available_commands_update",
    availableCommands: [
      { name: "test", description: "Run the tests", input: { hint: "a test name" } },
      { name: "plan", description: "Show the plan" },
    ],
  });
  const blocks = [
    { type: "text", text: "Here is what I found.", annotations: { audience: ["user"], priority: 0.5 } },
    { type: "image", data: TINY_PNG, mimeType: "image/png" },
    { type: "audio", data: TINY_WAV, mimeType: "audio/wav" },
    { type: "resource_link", uri: `file://${cwd}/README.md`, name: "README.md", mimeType: "text/markdown", size: 42 },
    { type: "resource", resource: { uri: `file://${cwd}/hello.txt`, text: "hello\n", mimeType: "text/plain" } },
    { type: "resource", resource: { uri: `file://${cwd}/logo.png`, blob: TINY_PNG, mimeType: "image/png" } },
  ];
  for (const content of blocks) await send({ sessionUpdate: "agent_message_chunk", content });

  // One tool call of each kind, pending -> in_progress -> completed (the `delete` one fails).
  for (const [index, kind] of KINDS.entries()) {
    const toolCallId = `call-${kind}`;
    const path = `${cwd}/src/file${index}.txt`;
    await send({
      sessionUpdate: "tool_call",
      toolCallId,
      title: `A ${kind} tool call`,
      kind,
      status: "pending",
      locations: [{ path, line: index + 1 }],
      rawInput: { path, attempt: 1 },
    });
    if (kind === "edit" || kind === "delete" || kind === "execute") {
      const options = [
        { optionId: "allow-once", name: "Allow once", kind: "allow_once" },
        { optionId: "allow-always", name: "Always allow", kind: "allow_always" },
        { optionId: "reject-once", name: "Reject", kind: "reject_once" },
        { optionId: "reject-always", name: "Always reject", kind: "reject_always" },
      ];
      const permission = await client.request(acp.methods.client.session.requestPermission, {
        sessionId,
        toolCall: { toolCallId, title: `Allow the ${kind}?`, kind, status: "pending" },
        options,
      });
      const selected = permission.outcome.outcome === "selected" ? permission.outcome.optionId : null;
      if (selected === null || selected.startsWith("reject")) {
        await send({
          sessionUpdate: "tool_call_update",
          toolCallId,
          status: "failed",
          content: [{ type: "content", content: { type: "text", text: `The user answered ${selected}.` } }],
          rawOutput: { refused: true },
        });
        continue;
      }
    }
    await send({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
    const content = [];
    if (kind === "read") {
      const file = await client.request(acp.methods.client.fs.readTextFile, { sessionId, path, line: 1, limit: 10 });
      content.push({ type: "content", content: { type: "text", text: file.content } });
    } else if (kind === "edit") {
      await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path, content: "hello, world\n" });
      content.push({ type: "diff", path, oldText: "hello\n", newText: "hello, world\n" });
      content.push({ type: "diff", path: `${cwd}/src/new.txt`, oldText: null, newText: "new\n" });
    } else if (kind === "execute") {
      const terminal = await client.createTerminal({ sessionId, command: "echo", args: ["hi"], outputByteLimit: 1024 });
      content.push({ type: "terminal", terminalId: terminal.id });
      await send({ sessionUpdate: "tool_call_update", toolCallId, content });
      await terminal.currentOutput();
      await terminal.waitForExit();
      await terminal.release();
    } else {
      content.push({ type: "content", content: { type: "text", text: `${kind} done` } });
    }
    await send({
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: "completed",
      title: `The ${kind} tool call`,
      content,
      rawOutput: { ok: true, kind },
    });
  }
  await send({
    sessionUpdate: "plan",
    entries: entries.map((entry) => ({ ...entry, status: "completed" })),
  });
  await send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "All done." } });
  return { stopReason: "end_turn" };
}

async function cancelledTurn(client, sessionId, cwd) {
  const controller = new AbortController();
  cancels.set(sessionId, controller);
  const send = (u) => update(client, sessionId, u);
  const toolCallId = "call-cancelled";
  await send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Starting a long job." } });
  await send({ sessionUpdate: "tool_call", toolCallId, title: "Remove the build directory", kind: "delete", status: "pending", locations: [{ path: `${cwd}/build` }] });
  const permission = await client.request(acp.methods.client.session.requestPermission, {
    sessionId,
    toolCall: { toolCallId },
    options: [
      { optionId: "allow", name: "Allow", kind: "allow_once" },
      { optionId: "reject", name: "Reject", kind: "reject_once" },
    ],
  });
  if (permission.outcome.outcome !== "cancelled") {
    throw new Error("the client was expected to cancel this turn");
  }
  // The client sent `session/cancel` before its answer; the SDK may hand the answer over first.
  if (!controller.signal.aborted) {
    await new Promise((resolve) => controller.signal.addEventListener("abort", resolve, { once: true }));
  }
  await send({ sessionUpdate: "tool_call_update", toolCallId, status: "failed", rawOutput: { cancelled: true } });
  cancels.delete(sessionId);
  return { stopReason: "cancelled" };
}

const turns = new Map();
const app = acp
  .agent({ name: "toolcall-contracts-peer-agent" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: false,
      promptCapabilities: { image: true, audio: true, embeddedContext: true },
    },
    authMethods: [],
    agentInfo: { name: "toolcall-contracts-peer-agent", version: "0.0.0" },
  }))
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    const sessionId = `session-${turns.size + 1}`;
    turns.set(sessionId, { turn: 0, cwd: params.cwd });
    return { sessionId };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const session = turns.get(params.sessionId);
    session.turn += 1;
    return session.turn === 1
      ? firstTurn(client, params.sessionId, session.cwd)
      : cancelledTurn(client, params.sessionId, session.cwd);
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    cancels.get(params.sessionId)?.abort();
  });

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
