// An MCP client on the official TypeScript SDK (typed API only: the SDK writes every message)
// that calls every tool `@modelcontextprotocol/server-everything` publishes, over stdio or HTTP:
//
//   node peers/mcp/everything-client.mjs -- COMMAND [ARGS...]
//   node peers/mcp/everything-client.mjs [--record FILE] --streamable-http URL
//   node peers/mcp/everything-client.mjs [--record FILE] --sse URL
//
// COMMAND starts the server (directly, through `toolcall tap`, or through peers/lib/tee.mjs).
// URL is the server's endpoint, directly or through `toolcall tap --listen` (`/mcp` for
// StreamableHTTPClientTransport, `/sse` for SSEClientTransport). --record FILE writes every
// message the client sent and received, as the client's transport saw it, one
// `{"from": "client"|"server", "message": ...}` line each. Over Streamable HTTP the flow ends by
// terminating the session (DELETE).
// The flow, in order (each step waits for the previous one, so the message count is the same on
// every run):
//   initialize (roots, sampling, form and URL elicitation, task-augmented sampling and
//   elicitation declared, so that all conditional tools are registered); wait for the server's
//   `roots/list`; `tools/list`; `resources/subscribe`; one call of every tool with valid
//   arguments (the long-running one with a progress token; the task-only research query as a
//   task, answering the elicitation it sends through `tasks/result`; the URL elicitation both
//   ways, its error path answered with -32042); a call with invalid arguments, a call of an
//   unknown tool; a long-running call cancelled after its first progress notification;
//   `resources/unsubscribe`; close (stdin EOF).
// Prints one JSON object on stdout: what the flow saw (tools listed and called, progress
// notifications delivered to the callbacks, the error codes, what the SDK reported through
// `onerror`), so that a test can check that the flow
// finished as it does without anything in between. Exit status 0 when it finished, 1 otherwise.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { openSync, writeSync, closeSync } from "node:fs";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const separator = process.argv.indexOf("--");
const [command, ...args] = separator < 0 ? [] : process.argv.slice(separator + 1);
const options = separator < 0 ? process.argv.slice(2) : process.argv.slice(2, separator);
const option = (name) => {
  const at = options.indexOf(name);
  return at < 0 ? undefined : options[at + 1];
};
const streamableUrl = option("--streamable-http");
const sseUrl = option("--sse");
const recordPath = option("--record");
if (!command && !streamableUrl && !sseUrl) {
  console.error(
    "usage: node peers/mcp/everything-client.mjs [--record FILE] (-- COMMAND [ARGS...] | --streamable-http URL | --sse URL)",
  );
  process.exit(2);
}

const summary = {
  server: null,
  toolsListed: [],
  toolsCalled: [],
  toolErrors: {},
  jsonRpcErrors: {},
  progress: 0,
  sdkErrors: {},
  cancelledAfterProgress: false,
  rootsRequests: 0,
  samplingRequests: 0,
  elicitations: { form: 0, url: 0 },
  clientTasks: 0,
  logMessages: 0,
  resourceUpdates: 0,
  finished: false,
};

const taskStore = new InMemoryTaskStore();
const client = new Client(
  { name: "toolcall-contracts-peer", version: "0.0.0" },
  {
    capabilities: {
      roots: { listChanged: true },
      sampling: {},
      elicitation: { form: {}, url: {} },
      tasks: {
        requests: {
          sampling: { createMessage: {} },
          elicitation: { create: {} },
        },
      },
    },
    taskStore,
  },
);

// Answers a request directly, or as a completed client-side task when the server asked for one.
async function answer(request, extra, result) {
  if (request.params.task && extra.taskStore) {
    const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl });
    await extra.taskStore.storeTaskResult(task.taskId, "completed", result);
    summary.clientTasks += 1;
    return { task };
  }
  return result;
}

let rootsAnswered;
const firstRoots = new Promise((resolve) => (rootsAnswered = resolve));
client.setRequestHandler(ListRootsRequestSchema, async () => {
  summary.rootsRequests += 1;
  rootsAnswered();
  return { roots: [{ uri: "file:///workspace/project", name: "project" }] };
});
client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
  summary.samplingRequests += 1;
  return answer(request, extra, {
    role: "assistant",
    content: { type: "text", text: "A short answer from the test client." },
    model: "toolcall-test-model",
    stopReason: "endTurn",
  });
});
client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
  if (request.params.mode === "url") {
    summary.elicitations.url += 1;
    return answer(request, extra, { action: "accept" });
  }
  summary.elicitations.form += 1;
  const properties = request.params.requestedSchema.properties;
  let content;
  if ("interpretation" in properties) {
    content = { interpretation: properties.interpretation.oneOf[0].const };
  } else if ("favoriteColor" in properties) {
    content = { name: "Ada", favoriteColor: "Blue", agreeToTerms: true };
  } else {
    content = { name: "Ada Lovelace", check: true, integer: 7, number: 2.5, email: "ada@example.com" };
  }
  return answer(request, extra, { action: "accept", content });
});
client.setNotificationHandler(LoggingMessageNotificationSchema, () => {
  summary.logMessages += 1;
});
client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
  summary.resourceUpdates += 1;
});

// What the SDK reports without failing a request (it drops a progress notification whose token
// it no longer knows), counted by its first words.
let cancelledAt = null;
let errorsSinceCancel = 0;
client.onerror = (error) => {
  if (cancelledAt !== null) errorsSinceCancel += 1;
  const what = error.message.split(":")[0];
  summary.sdkErrors[what] = (summary.sdkErrors[what] ?? 0) + 1;
};

/** `transport`, writing every message it sends and delivers to `path`. */
function recording(transport, path) {
  const file = openSync(path, "w");
  const write = (from, message) => writeSync(file, JSON.stringify({ from, message }) + "\n");
  return new Proxy(transport, {
    get(target, property) {
      if (property === "send") {
        return (message, sendOptions) => {
          write("client", message);
          return target.send(message, sendOptions);
        };
      }
      if (property === "close") {
        return async () => {
          await target.close();
          closeSync(file);
        };
      }
      const value = target[property];
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(target, property, value) {
      if (property === "onmessage" && typeof value === "function") {
        target.onmessage = (message, extra) => {
          write("server", message);
          value(message, extra);
        };
      } else {
        target[property] = value;
      }
      return true;
    },
  });
}

let transport;
if (streamableUrl) {
  transport = new StreamableHTTPClientTransport(new URL(streamableUrl));
} else if (sseUrl) {
  transport = new SSEClientTransport(new URL(sseUrl));
} else {
  transport = new StdioClientTransport({
    command,
    args,
    // A fixed environment: `get-env` returns it, and recorded fixtures must not carry this
    // machine's.
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8" },
    stderr: "inherit",
  });
}
if (recordPath) transport = recording(transport, recordPath);

async function call(name, toolArguments, options) {
  const result = await client.callTool({ name, arguments: toolArguments }, CallToolResultSchema, options);
  summary.toolsCalled.push(name);
  if (result.isError) summary.toolErrors[name] = (summary.toolErrors[name] ?? 0) + 1;
  return result;
}

async function callExpectingError(name, toolArguments) {
  try {
    await client.callTool({ name, arguments: toolArguments });
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    summary.toolsCalled.push(name);
    summary.jsonRpcErrors[error.code] = (summary.jsonRpcErrors[error.code] ?? 0) + 1;
    return error;
  }
  throw new Error(`${name}: expected a JSON-RPC error`);
}

async function main() {
  await client.connect(transport);
  summary.server = client.getServerVersion();
  // The server asks for the roots 350 ms after `notifications/initialized`; wait for it so that
  // `get-roots-list` finds them (otherwise it may ask a second time).
  await firstRoots;

  const listed = await client.listTools();
  summary.toolsListed = listed.tools.map((tool) => tool.name);
  if (listed.nextCursor !== undefined) {
    throw new Error("server-everything paged tools/list; the flow does not expect it");
  }

  const textResource = "demo://resource/dynamic/text/1";
  await client.subscribeResource({ uri: textResource });

  await call("echo", { message: "hello from the peer" });
  await call("get-annotated-message", { messageType: "error", includeImage: true });
  await call("get-annotated-message", { messageType: "success", includeImage: false });
  await call("get-env", {});
  await call("get-resource-links", { count: 3 });
  await call("get-resource-reference", { resourceType: "Text", resourceId: 2 });
  await call("get-resource-reference", { resourceType: "Blob", resourceId: 1 });
  await call("get-structured-content", { location: "Chicago" });
  await call("get-sum", { a: 2, b: 3.5 });
  await call("get-tiny-image", {});
  await call("gzip-file-as-resource", {
    name: "hello.txt.gz",
    data: "data:text/plain;base64,aGVsbG8sIHdvcmxkCg==",
    outputType: "resource",
  });
  await call("gzip-file-as-resource", {
    name: "hello-link.txt.gz",
    data: "data:text/plain;base64,aGVsbG8sIHdvcmxkCg==",
    outputType: "resourceLink",
  });
  // On, then off at once: one logging message (the next would come 5 s later).
  await call("toggle-simulated-logging", {});
  await call("toggle-simulated-logging", {});
  // On, then off: one `notifications/resources/updated` for the subscribed resource.
  await call("toggle-subscriber-updates", {});
  await call("toggle-subscriber-updates", {});
  await call(
    "trigger-long-running-operation",
    { duration: 0.5, steps: 5 },
    { onprogress: () => (summary.progress += 1) },
  );
  await call("get-roots-list", {});
  await call("trigger-elicitation-request", {});
  await callExpectingError("trigger-url-elicitation", {
    url: "https://example.com/authorize",
    errorPath: true,
  });
  await call("trigger-url-elicitation", { url: "https://example.com/authorize", errorPath: true });
  await call("trigger-sampling-request", { prompt: "Say hello", maxTokens: 20 });
  await call("trigger-sampling-request-async", { prompt: "Say hello later", maxTokens: 20 });
  await call("trigger-elicitation-request-async", {});

  // The task-only tool: create the task, ask its status once, then block on `tasks/result`,
  // which delivers the server's clarifying elicitation and then the result.
  const created = await client.request(
    {
      method: "tools/call",
      params: { name: "simulate-research-query", arguments: { topic: "python", ambiguous: true } },
    },
    CreateTaskResultSchema,
    { task: { ttl: 60000 } },
  );
  await client.experimental.tasks.getTask(created.task.taskId);
  const report = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
  if (!report.content?.length) throw new Error("simulate-research-query: empty result");
  summary.toolsCalled.push("simulate-research-query");

  // Invalid arguments, then a tool that does not exist.
  await call("get-sum", { a: "two", b: 3 });
  await call("no-such-tool", {});

  // A cancellation: abort the long-running call after its first progress notification.
  const controller = new AbortController();
  let cancelled;
  try {
    await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.5, steps: 5 } }, CallToolResultSchema, {
      signal: controller.signal,
      onprogress: () => {
        summary.progress += 1;
        cancelledAt = Date.now();
        controller.abort("the user cancelled");
      },
    });
  } catch (error) {
    cancelled = error;
  }
  if (!cancelled) throw new Error("the cancelled call returned a result");
  summary.cancelledAfterProgress = true;
  // The server goes on with the operation it was asked to stop: four more progress
  // notifications, 0.1 s apart, which the SDK reports through `onerror`. Wait for them (10 s at
  // most) so that every run sees the same messages.
  const deadline = Date.now() + 10000;
  while (errorsSinceCancel < 4 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (errorsSinceCancel < 4) throw new Error(`only ${errorsSinceCancel} progress notifications after the cancellation`);

  await client.unsubscribeResource({ uri: textResource });
  if (streamableUrl) await transport.terminateSession();
  summary.finished = true;
}

let status = 0;
try {
  await main();
} catch (error) {
  console.error("everything-client:", error);
  status = 1;
} finally {
  await client.close();
}
summary.toolsCalled = [...new Set(summary.toolsCalled)].sort();
summary.toolsListed.sort();
process.stdout.write(JSON.stringify(summary) + "\n");
process.exit(status);
