// Recorder of tests/fixtures/acp/claude-agent-acp/ (see its PROVENANCE.md). ACP client (official
// TypeScript SDK) driving claude-agent-acp: a turn with tool calls, then
// `session/load` of the same session on the same connection (the agent replays its history),
// then another turn; then a second agent process that loads the session (replay only).
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const separator = process.argv.indexOf("--");
const [command, ...args] = process.argv.slice(separator + 1);
const cwd = process.env.WORKDIR;
const mode = process.env.MODE || "same"; // same | load-only
const summary = { updates: {}, permissions: 0, sessionId: null, finished: false };
const app = acp
  .client({ name: "toolcall-contracts-recorder" })
  .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
    summary.permissions += 1;
    const allow = params.options.find((o) => o.kind === "allow_once") ?? params.options[0];
    return { outcome: { outcome: "selected", optionId: allow.optionId } };
  })
  .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => ({ content: (await import("node:fs")).readFileSync(params.path, "utf8") }))
  .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => { (await import("node:fs")).writeFileSync(params.path, params.content); return {}; })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    const k = params.update.sessionUpdate;
    summary.updates[k] = (summary.updates[k] ?? 0) + 1;
  });

const agentProcess = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const exited = new Promise((resolve) => agentProcess.on("close", (code, signal) => resolve({ code, signal })));
const stream = acp.ndJsonStream(Writable.toWeb(agentProcess.stdin), Readable.toWeb(agentProcess.stdout));
let status = 0;
try {
  await app.connectWith(stream, async (ctx) => {
    await ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
      clientInfo: { name: "toolcall-contracts-recorder", version: "0.0.0" },
    });
    let sessionId = process.env.SESSION_ID;
    if (mode === "same") {
      const created = await ctx.request("session/new", { cwd, mcpServers: [] });
      sessionId = created.sessionId;
      summary.sessionId = sessionId;
      const r1 = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: process.env.PROMPT1 || "Read notes.txt and fix it." }] });
      summary.stop1 = r1.stopReason;
      await new Promise((r) => setTimeout(r, 300));
    }
    await ctx.request("session/load", { sessionId, cwd, mcpServers: [] });
    await new Promise((r) => setTimeout(r, 300));
    if (mode === "same") {
      const r2 = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Once more." }] });
      summary.stop2 = r2.stopReason;
      await new Promise((r) => setTimeout(r, 300));
    }
  });
  summary.finished = true;
} catch (error) {
  console.error("client:", error);
  status = 1;
}
agentProcess.stdin.end();
setTimeout(() => agentProcess.kill("SIGTERM"), 3000).unref();
await exited;
process.stdout.write(JSON.stringify(summary) + "\n");
process.exit(status);
