// Recorder of tests/fixtures/mcp/server-filesystem/ (see its PROVENANCE.md).
// A raw MCP client offering 2026-07-28 in `initialize`, then following the server's counter-offer.
import { spawn } from "node:child_process";
import readline from "node:readline";
const separator = process.argv.indexOf("--");
const [command, ...args] = process.argv.slice(separator + 1);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const lines = readline.createInterface({ input: child.stdout });
const waiting = new Map();
lines.on("line", (line) => { const m = JSON.parse(line); if (waiting.has(m.id)) { waiting.get(m.id)(m); waiting.delete(m.id); } });
let next = 0;
const request = (method, params) => new Promise((resolve) => { const id = next++; waiting.set(id, resolve); child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n"); });
const init = await request("initialize", { protocolVersion: "2026-07-28", capabilities: {}, clientInfo: { name: "offer-client", version: "0.0.0" } });
child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
const tools = await request("tools/list", {});
child.stdin.end();
console.log(JSON.stringify({ negotiated: init.result?.protocolVersion, tools: tools.result?.tools?.length }));
setTimeout(() => child.kill(), 500).unref();
