// Records the MCP fixtures under tests/fixtures/mcp/ from real peers (run after
// peers/install.sh, from anywhere):
//
//   node peers/record/mcp-fixtures.mjs
//
// 1. server-everything/: the official TypeScript SDK client (peers/mcp/everything-client.mjs)
//    against @modelcontextprotocol/server-everything over stdio, recorded byte for byte by
//    peers/lib/tee.mjs: transcript.ndjson, and tools-list.json (the `result` of the `tools/list`
//    response, pretty-printed; the script checks that the server's line re-serializes to itself,
//    so the value is exactly what the server sent).
// 2. python-sdk/: the official Python SDK's client (peers/mcp/py_client.py) against a server on
//    the same SDK (peers/mcp/py_server.py): transcript.ndjson.
// 3. PROVENANCE.md: packages and exact versions, this command, the date, the negotiated protocol
//    versions, message counts.
// Exits 1 when a flow did not finish or a check fails.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const peers = join(root, "peers");
const out = join(root, "tests", "fixtures", "mcp");
const python = join(peers, ".venv", "bin", "python");
const tee = join(peers, "lib", "tee.mjs");
const node = process.execPath;

function fail(message) {
  console.error(`mcp-fixtures: ${message}`);
  process.exit(1);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (result.status !== 0) fail(`${command} ${args.join(" ")} exited with ${result.status}`);
  const summary = JSON.parse(result.stdout.trim().split("\n").pop());
  if (!summary.finished) fail(`${args[0]}: the flow did not finish`);
  return summary;
}

function readTranscript(path) {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
}

function packageVersion(name) {
  return JSON.parse(readFileSync(join(peers, "node_modules", name, "package.json"), "utf8")).version;
}

function pythonVersion(name) {
  const result = spawnSync(python, ["-c", `import importlib.metadata as m; print(m.version(${JSON.stringify(name)}))`], {
    encoding: "utf8",
  });
  if (result.status !== 0) fail(`cannot read the version of ${name}`);
  return result.stdout.trim();
}

/** Progress notifications of the `index`th request that asked for progress. */
function progressOf(records, index) {
  const token = records.filter((r) => r.message?.params?._meta?.progressToken !== undefined)[index]?.message.params._meta
    .progressToken;
  return records.filter((r) => r.message?.method === "notifications/progress" && r.message.params.progressToken === token)
    .length;
}

/** Counts messages by sender and JSON-RPC shape. */
function counts(records) {
  const byFrom = {};
  for (const { from, message } of records) {
    const kind = message?.method !== undefined ? (message.id !== undefined ? "requests" : "notifications") : "responses";
    byFrom[from] ??= { requests: 0, notifications: 0, responses: 0 };
    byFrom[from][kind] += 1;
  }
  return byFrom;
}

function describe(byFrom) {
  return Object.entries(byFrom)
    .map(([from, c]) => `${from}: ${c.requests} requests, ${c.notifications} notifications, ${c.responses} responses`)
    .join("; ");
}

// 1. server-everything.
const everythingDir = join(out, "server-everything");
mkdirSync(everythingDir, { recursive: true });
const everythingTranscript = join(everythingDir, "transcript.ndjson");
const serverEntry = join(peers, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const everything = run(node, [
  join(peers, "mcp", "everything-client.mjs"),
  "--",
  node,
  tee,
  everythingTranscript,
  "server",
  "--",
  node,
  serverEntry,
  "stdio",
]);
const records = readTranscript(everythingTranscript);
const rawLines = readFileSync(everythingTranscript, "utf8").split("\n");
const listRequest = records.find((r) => r.from === "client" && r.message?.method === "tools/list");
const listIndex = records.findIndex((r) => r.from === "server" && r.message?.id === listRequest?.message.id && "result" in r.message);
if (listIndex < 0) fail("no tools/list response in the transcript");
const listLine = rawLines[listIndex];
const spliced = listLine.slice('{"from":"server","message":'.length, -1);
if (JSON.stringify(JSON.parse(spliced)) !== spliced) {
  fail("the tools/list response does not re-serialize to itself; tools-list.json would not be what the server sent");
}
const tools = records[listIndex].message.result;
writeFileSync(join(everythingDir, "tools-list.json"), JSON.stringify(tools, null, 2) + "\n");
if (tools.tools.length !== everything.toolsListed.length) fail("tools/list and the client disagree on the tool count");
const missing = everything.toolsListed.filter((name) => !everything.toolsCalled.includes(name));
if (missing.length) fail(`tools never called: ${missing.join(", ")}`);
const everythingVersion = records.find((r) => r.from === "server" && r.message?.result?.protocolVersion)?.message.result
  .protocolVersion;

// 2. The Python SDK, 2026-07-28.
const pythonDir = join(out, "python-sdk");
mkdirSync(pythonDir, { recursive: true });
const pythonTranscript = join(pythonDir, "transcript.ndjson");
const py = run(python, [
  join(peers, "mcp", "py_client.py"),
  "--",
  node,
  tee,
  pythonTranscript,
  "server",
  "--",
  python,
  join(peers, "mcp", "py_server.py"),
]);
const pyRecords = readTranscript(pythonTranscript);
if (pyRecords[0]?.message?.method !== "server/discover") fail("the Python session does not start with server/discover");
if (pyRecords.some((r) => r.message?.method === "initialize")) fail("the Python session sent initialize");

const unknownTokens = everything.sdkErrors["Received a progress notification for an unknown token"] ?? 0;

// 3. PROVENANCE.md.
const date = new Date().toISOString().slice(0, 10);
const provenance = `# Provenance of the MCP fixtures

Recorded from real peers by \`node peers/record/mcp-fixtures.mjs\` (after \`bash peers/install.sh\`)
on ${date}, Node ${process.version}. Every message was written by an official SDK's typed API;
\`peers/lib/tee.mjs\` sat in the stdio pipe and copied each line into the transcript unchanged
(\`{"from": "client"|"server", "message": <the line as sent>}\`; a line that is not JSON would be
\`{"from": ..., "text": "<the line>"}\`; there is none). Re-recording gives other task ids, UUIDs,
timestamps and log levels (server-everything picks them at random), the same messages otherwise.

## server-everything/

- Client: \`@modelcontextprotocol/sdk\` ${packageVersion("@modelcontextprotocol/sdk")} (\`Client\` over \`StdioClientTransport\`), \`peers/mcp/everything-client.mjs\`.
- Server: \`@modelcontextprotocol/server-everything\` ${packageVersion("@modelcontextprotocol/server-everything")} (\`dist/index.js stdio\`; it runs on the same SDK version), environment \`PATH\` and \`LANG\` only (its \`get-env\` tool returns it).
- Negotiated protocol version: \`${everythingVersion}\` (the TypeScript SDK's latest).
- \`tools-list.json\`: the \`result\` of the \`tools/list\` response, ${tools.tools.length} tools (the server does not page: no \`nextCursor\`), pretty-printed; the server's line re-serializes to itself, so the value is exactly what it sent.
- \`transcript.ndjson\`: ${records.length} messages (${describe(counts(records))}). Every tool called with valid arguments (${everything.toolsCalled.length - 1} tools, some twice), \`trigger-long-running-operation\` with a \`progressToken\` (${progressOf(records, 0)} progress notifications), \`simulate-research-query\` as a task (its elicitation delivered through \`tasks/result\`), the async sampling and elicitation tools answered with client-side tasks, \`trigger-url-elicitation\` on its error path (-32042) and its request path, \`get-sum\` with invalid arguments (\`isError: true\`), an unknown tool (\`isError: true\`), and a long-running call cancelled (\`notifications/cancelled\`) after its first progress notification: the server sent ${progressOf(records, 1) - 1} more for it (${progressOf(records, 1)} in all). The SDK client reported ${unknownTokens} progress notifications through \`onerror\` as having an unknown token: the ${progressOf(records, 1) - 1} sent after the cancellation, and ${unknownTokens - (progressOf(records, 1) - 1)} that came before its response on the wire (the client handles a response as it reads it but a notification a tick later, so a progress notification read just before its response finds its handler gone; how many it loses depends on timing).

## python-sdk/

- Client and server: \`mcp\` ${pythonVersion("mcp")} (PyPI; \`mcp-types\` ${pythonVersion("mcp-types")}), \`peers/mcp/py_client.py\` (\`Client\` over \`StdioServerParameters\`) against \`peers/mcp/py_server.py\` (\`MCPServer\`), Python ${spawnSync(python, ["-c", "import platform; print(platform.python_version())"], { encoding: "utf8" }).stdout.trim()}.
- Negotiated protocol version: \`${py.protocolVersion}\`, through \`server/discover\` (no \`initialize\`; each request carries the version in \`_meta\`).
- \`transcript.ndjson\`: ${pyRecords.length} messages (${describe(counts(pyRecords))}): \`server/discover\`, \`tools/list\`, \`add\` (structured content, the SDK writes \`5.0\`), \`count\` with a progress token (${py.progress} progress notifications), \`fail\` (\`isError: true\`), \`add\` with invalid arguments (\`isError: true\`).
`;
writeFileSync(join(out, "PROVENANCE.md"), provenance);
console.log(`server-everything: ${records.length} messages, ${tools.tools.length} tools, protocol ${everythingVersion}`);
console.log(`python-sdk: ${pyRecords.length} messages, protocol ${py.protocolVersion}`);
