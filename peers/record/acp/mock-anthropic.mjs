// Recorder of tests/fixtures/acp/claude-agent-acp/ (see its PROVENANCE.md).
// Mock of the Anthropic Messages API (streaming): scripted tool use, then text.
import http from "node:http";
import fs from "node:fs";
const port = Number(process.argv[2] || 8765);
const script = JSON.parse(fs.readFileSync(process.argv[3], "utf8")); // array of tool uses per turn
const log = fs.openSync(process.argv[4] || "/tmp/realpeers/mock.log", "a");
let turn = 0;
function sse(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [type, data] of events) res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  res.end();
}
function message(content, stop) {
  const id = "msg_" + Math.random().toString(36).slice(2);
  const ev = [["message_start", { message: { id, type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }]];
  content.forEach((block, index) => {
    if (block.type === "text") {
      ev.push(["content_block_start", { index, content_block: { type: "text", text: "" } }]);
      ev.push(["content_block_delta", { index, delta: { type: "text_delta", text: block.text } }]);
    } else {
      ev.push(["content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } }]);
      ev.push(["content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } }]);
    }
    ev.push(["content_block_stop", { index }]);
  });
  ev.push(["message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } }]);
  ev.push(["message_stop", {}]);
  return ev;
}
http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    fs.writeSync(log, `${req.method} ${req.url} ${body.slice(0, 300)}\n`);
    if (!req.url.startsWith("/v1/messages")) { res.writeHead(404); res.end("{}"); return; }
    if (req.url.includes("count_tokens")) { res.writeHead(200, {"content-type":"application/json"}); res.end('{"input_tokens":10}'); return; }
    let parsed = {};
    try { parsed = JSON.parse(body); } catch {}
    const msgs = parsed.messages || [];
    const last = msgs[msgs.length - 1];
    const lastContent = Array.isArray(last?.content) ? last.content : [];
    const hasResult = lastContent.some((c) => c.type === "tool_result");
    const hasTools = Array.isArray(parsed.tools) && parsed.tools.length > 0;
    if (!parsed.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "msg_x", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "Title" }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }));
      return;
    }
    if (!hasTools) { sse(res, message([{ type: "text", text: "ok" }], "end_turn")); return; }
    // Which step of the current turn: count tool_result messages since the last plain user text.
    let step = 0;
    for (let i = msgs.length - 1; i >= 0; i--) {
      const c = Array.isArray(msgs[i].content) ? msgs[i].content : [{ type: "text" }];
      if (msgs[i].role === "user" && c.some((b) => b.type === "tool_result")) step++;
      else if (msgs[i].role === "user") break;
    }
    let userTurns = msgs.filter((m) => m.role === "user" && !(Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result"))).length;
    const plan = script[(userTurns - 1) % script.length] || [];
    if (step < plan.length) {
      const uses = plan[step].map((u, k) => ({ type: "tool_use", id: `toolu_${userTurns}_${step}_${k}`, name: u.name, input: u.input }));
      sse(res, message([{ type: "text", text: "Working on it." }, ...uses], "tool_use"));
    } else {
      sse(res, message([{ type: "text", text: "Done." }], "end_turn"));
    }
  });
}).listen(port, "127.0.0.1", () => console.error(`mock on ${port}`));
