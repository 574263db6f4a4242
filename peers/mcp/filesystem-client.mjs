// An MCP client on the official TypeScript SDK (`@modelcontextprotocol/sdk`, `Client` over
// `StdioClientTransport`) against @modelcontextprotocol/server-filesystem:
//
//   FSROOT=DIR node peers/mcp/filesystem-client.mjs -- COMMAND [ARGS...]
//
// COMMAND starts the server (directly or through `toolcall tap`) with DIR as its allowed
// directory. The flow: list the tools, read DIR/big.txt as text and DIR/noise.png as media (the
// server answers each with the content twice, as a content block and as `structuredContent`),
// write DIR/out.txt, list DIR, get DIR/big.txt's info. Prints one JSON object on stdout: the
// tools listed and, per call, whether it was an error and the size of its result. Exit status
// 0 when it finished.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const separator = process.argv.indexOf("--");
const [command, ...args] = process.argv.slice(separator + 1);
const root = process.env.FSROOT;
if (separator < 0 || !command || !root) {
  console.error("usage: FSROOT=DIR node peers/mcp/filesystem-client.mjs -- COMMAND [ARGS...]");
  process.exit(2);
}
const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
const client = new Client({ name: "toolcall-contracts-peer-client", version: "0.0.0" });
const summary = { calls: [], finished: false };
let status = 0;
try {
  await client.connect(transport);
  summary.tools = (await client.listTools()).tools.map((tool) => tool.name);
  for (const [name, args] of [
    ["read_text_file", { path: `${root}/big.txt` }],
    ["read_media_file", { path: `${root}/noise.png` }],
    ["write_file", { path: `${root}/out.txt`, content: "hello\n" }],
    ["list_directory", { path: root }],
    ["get_file_info", { path: `${root}/big.txt` }],
  ]) {
    const result = await client.callTool({ name, arguments: args });
    summary.calls.push([name, result.isError === true, JSON.stringify(result).length]);
  }
  await client.close();
  summary.finished = true;
} catch (error) {
  console.error("filesystem client:", error);
  status = 1;
}
process.stdout.write(JSON.stringify(summary) + "\n");
process.exit(status);
