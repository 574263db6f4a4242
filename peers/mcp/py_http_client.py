"""An MCP client on the official Python SDK (`mcp` 2.x, `Client`) over HTTP, for
`@modelcontextprotocol/server-everything` in its `streamableHttp` or `sse` mode.

`python peers/mcp/py_http_client.py [--record FILE] (--streamable-http URL | --sse URL)`: URL is
the server's endpoint (`/mcp`, `/sse`), directly or through `toolcall tap --listen`. Over
Streamable HTTP the client negotiates as the SDK prefers (`server/discover`, then `initialize`
when the server does not know it); over HTTP+SSE it initializes (`mode="legacy"`). The flow:
list the tools, the resources and the prompts; call `echo`, `get-sum`, `get-structured-content`,
`trigger-long-running-operation` (with a progress callback), `trigger-sampling-request` and
`trigger-elicitation-request` (answered by the callbacks below), `get-sum` with invalid arguments,
and a tool that does not exist. --record FILE writes every message the client's transport sent
and received, one `{"from": "client"|"server", "message": ...}` line each (`by_alias`, without
unset members: as the SDK writes them). Prints one JSON object on stdout (what the flow saw);
exit status 0 when it finished.
"""

import asyncio
import contextlib
import json
import sys

import mcp_types as types
from mcp import Client
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client


class Recorder:
    """Writes each message to the record file."""

    def __init__(self, path):
        self.file = open(path, "w") if path else None

    def write(self, sender, session_message):
        if self.file is None or not hasattr(session_message, "message"):
            return
        message = session_message.message.model_dump(by_alias=True, mode="json", exclude_unset=True)
        self.file.write(json.dumps({"from": sender, "message": message}) + "\n")
        self.file.flush()


class RecordingRead:
    def __init__(self, inner, recorder):
        self.inner, self.recorder = inner, recorder

    async def receive(self):
        item = await self.inner.receive()
        self.recorder.write("server", item)
        return item

    async def aclose(self):
        await self.inner.aclose()

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return await self.receive()
        except Exception as error:  # the end of the stream, as the inner stream says it
            if type(error).__name__ in ("EndOfStream", "ClosedResourceError"):
                raise StopAsyncIteration from error
            raise

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.aclose()


class RecordingWrite:
    def __init__(self, inner, recorder):
        self.inner, self.recorder = inner, recorder

    async def send(self, item, /):
        self.recorder.write("client", item)
        await self.inner.send(item)

    async def aclose(self):
        await self.inner.aclose()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.aclose()


@contextlib.asynccontextmanager
async def recording(transport, recorder):
    async with transport as (read, write):
        yield RecordingRead(read, recorder), RecordingWrite(write, recorder)


async def main(url: str, sse: bool, record: str | None) -> dict:
    summary: dict = {"protocolVersion": None, "tools": 0, "resources": 0, "prompts": 0, "progress": 0,
                     "sampling": 0, "elicitation": 0, "results": {}, "finished": False}

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        summary["progress"] += 1

    async def sampling(context, params):
        summary["sampling"] += 1
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="A short answer from the Python client."),
            model="toolcall-test-model",
            stop_reason="endTurn",
        )

    async def elicitation(context, params):
        summary["elicitation"] += 1
        return types.ElicitResult(action="decline")

    recorder = Recorder(record)
    transport = sse_client(url) if sse else streamable_http_client(url)
    async with Client(
        recording(transport, recorder),
        mode="legacy" if sse else "auto",
        sampling_callback=sampling,
        elicitation_callback=elicitation,
    ) as client:
        summary["protocolVersion"] = client.protocol_version
        summary["tools"] = len((await client.list_tools()).tools)
        summary["resources"] = len((await client.list_resources()).resources)
        summary["prompts"] = len((await client.list_prompts()).prompts)
        echoed = await client.call_tool("echo", {"message": "hello from Python"})
        summary["results"]["echo"] = echoed.content[0].text
        added = await client.call_tool("get-sum", {"a": 2, "b": 3.5})
        summary["results"]["get-sum"] = added.content[0].text
        structured = await client.call_tool("get-structured-content", {"location": "Chicago"})
        summary["results"]["get-structured-content"] = structured.structured_content
        await client.call_tool(
            "trigger-long-running-operation", {"duration": 0.3, "steps": 3}, progress_callback=on_progress
        )
        sampled = await client.call_tool("trigger-sampling-request", {"prompt": "Say hello", "maxTokens": 20})
        summary["results"]["trigger-sampling-request"] = not sampled.is_error
        elicited = await client.call_tool("trigger-elicitation-request", {})
        summary["results"]["trigger-elicitation-request"] = not elicited.is_error
        invalid = await client.call_tool("get-sum", {"a": "two", "b": 3})
        summary["results"]["invalid"] = {"isError": invalid.is_error}
        try:
            unknown = await client.call_tool("no-such-tool", {})
            summary["results"]["unknown"] = {"isError": unknown.is_error}
        except Exception as error:  # a JSON-RPC error, as some versions answer
            summary["results"]["unknown"] = {"error": type(error).__name__}
    summary["finished"] = True
    return summary


if __name__ == "__main__":
    arguments = sys.argv[1:]

    def option(name):
        return arguments[arguments.index(name) + 1] if name in arguments else None

    streamable, sse, record = option("--streamable-http"), option("--sse"), option("--record")
    if not (streamable or sse):
        print("usage: python peers/mcp/py_http_client.py [--record FILE] (--streamable-http URL | --sse URL)",
              file=sys.stderr)
        sys.exit(2)
    result = asyncio.run(main(streamable or sse, bool(sse), record))
    print(json.dumps(result))
    sys.exit(0 if result["finished"] else 1)
