// An ACP client on the official TypeScript SDK (`@agentclientprotocol/sdk`, stable v1 entry
// point, typed API only: the SDK writes every message), driving an agent over stdio:
//
//   node peers/acp/client.mjs -- COMMAND [ARGS...]
//
// COMMAND starts the agent (peers/acp/agent.mjs, directly or through `toolcall tap`). The flow:
// initialize (file system and terminal capabilities), `session/new`, a first prompt turn with
// content of each type in the prompt, answering the agent's requests (permissions: the first
// allowed once, the second rejected, the third allowed always; files read and written; a
// terminal run) until `end_turn`; then a second prompt turn that the client cancels
// (`session/cancel`) when the agent asks for permission, answering that request `cancelled`,
// until stop reason `cancelled`. Closes the agent's stdin at the end.
// Prints one JSON object on stdout: what the flow saw (session updates by kind, tool calls by
// final status, permission requests, file and terminal requests, stop reasons), so that a test
// can check that the flow finished as it does without anything in between. Exit status 0 when
// it finished, 1 otherwise.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const separator = process.argv.indexOf("--");
const [command, ...args] = process.argv.slice(separator + 1);
if (separator < 0 || !command) {
  console.error("usage: node peers/acp/client.mjs -- COMMAND [ARGS...]");
  process.exit(2);
}

const summary = {
  protocolVersion: null,
  agent: null,
  updates: {},
  toolCalls: {},
  permissions: { selected: [], cancelled: 0 },
  files: { read: 0, written: 0 },
  terminals: { created: 0, output: 0, waited: 0, released: 0 },
  stopReasons: [],
  finished: false,
};

const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const cwd = "/workspace/project";
// The permission answers of the first turn, in order; the second turn's request is cancelled.
const answers = ["allow-once", "reject-once", "allow-always"];
let cancelling = null;

const app = acp
  .client({ name: "toolcall-contracts-peer-client" })
  .onRequest(acp.methods.client.session.requestPermission, async ({ params, agent }) => {
    if (cancelling) {
      await agent.notify(acp.methods.agent.session.cancel, { sessionId: params.sessionId });
      cancelling();
      summary.permissions.cancelled += 1;
      return { outcome: { outcome: "cancelled" } };
    }
    const optionId = answers[summary.permissions.selected.length];
    summary.permissions.selected.push(optionId);
    return { outcome: { outcome: "selected", optionId } };
  })
  .onRequest(acp.methods.client.fs.readTextFile, () => {
    summary.files.read += 1;
    return { content: "hello\n" };
  })
  .onRequest(acp.methods.client.fs.writeTextFile, () => {
    summary.files.written += 1;
    return {};
  })
  .onRequest(acp.methods.client.terminal.create, () => {
    summary.terminals.created += 1;
    return { terminalId: "terminal-1" };
  })
  .onRequest(acp.methods.client.terminal.output, () => {
    summary.terminals.output += 1;
    return { output: "hi\n", truncated: false, exitStatus: { exitCode: 0, signal: null } };
  })
  .onRequest(acp.methods.client.terminal.waitForExit, () => {
    summary.terminals.waited += 1;
    return { exitCode: 0, signal: null };
  })
  .onRequest(acp.methods.client.terminal.release, () => {
    summary.terminals.released += 1;
    return {};
  });

/** Reads the session's updates until the turn stops; tallies them. */
async function readTurn(session) {
  for (;;) {
    const message = await session.nextUpdate();
    if (message.kind === "stop") {
      summary.stopReasons.push(message.stopReason);
      return;
    }
    const update = message.update;
    summary.updates[update.sessionUpdate] = (summary.updates[update.sessionUpdate] ?? 0) + 1;
    if (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") {
      if (update.status) summary.toolCalls[update.toolCallId] = update.status;
    }
  }
}

const agentProcess = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const exited = new Promise((resolve) => agentProcess.on("close", (code, signal) => resolve({ code, signal })));
const stream = acp.ndJsonStream(Writable.toWeb(agentProcess.stdin), Readable.toWeb(agentProcess.stdout));

let status = 0;
try {
  await app.connectWith(stream, async (ctx) => {
    const init = await ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      clientInfo: { name: "toolcall-contracts-peer-client", version: "0.0.0" },
    });
    summary.protocolVersion = init.protocolVersion;
    summary.agent = init.agentInfo?.name ?? null;
    await ctx.buildSession(cwd).withSession(async (session) => {
      const first = session.prompt([
        { type: "text", text: "Change the greeting and run the tests." },
        { type: "image", data: TINY_PNG, mimeType: "image/png" },
        { type: "resource_link", uri: `file://${cwd}/src/greeting.txt`, name: "greeting.txt" },
        { type: "resource", resource: { uri: `file://${cwd}/notes.md`, text: "# Notes\n", mimeType: "text/markdown" } },
      ]);
      await readTurn(session);
      await first;
      const cancelled = new Promise((resolve) => (cancelling = resolve));
      const second = session.prompt("Now clean the build.");
      await readTurn(session);
      await second;
      await cancelled;
    });
  });
  summary.finished = true;
} catch (error) {
  console.error("acp client:", error);
  status = 1;
}
agentProcess.stdin.end();
const agentExit = await exited;
if (agentExit.code !== 0) {
  console.error(`acp client: the agent exited with ${JSON.stringify(agentExit)}`);
  status = 1;
}
process.stdout.write(JSON.stringify(summary) + "\n");
process.exit(status);
