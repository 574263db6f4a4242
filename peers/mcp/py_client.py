"""An MCP client on the official Python SDK (`mcp` 2.x, `Client`), over stdio.

`python peers/mcp/py_client.py -- COMMAND [ARGS...]`: COMMAND starts the server (for example
`python peers/mcp/py_server.py`, through `toolcall tap` or peers/lib/tee.mjs). The client
negotiates the protocol version the SDK prefers (2026-07-28 through `server/discover`, no
`initialize`), lists the tools, calls each (`count` with a progress callback), then `add` with
invalid arguments. Prints one JSON object on stdout: the negotiated version, the tools listed,
the progress notifications seen, the results; exit status 0 when the flow finished.
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters


async def main(command: list[str]) -> dict:
    summary: dict = {"protocolVersion": None, "tools": [], "progress": 0, "results": {}, "finished": False}

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        summary["progress"] += 1

    params = StdioServerParameters(command=command[0], args=command[1:], env={"PATH": "/usr/local/bin:/usr/bin:/bin"})
    async with Client(params) as client:
        summary["protocolVersion"] = client.protocol_version
        listed = await client.list_tools()
        summary["tools"] = sorted(tool.name for tool in listed.tools)
        added = await client.call_tool("add", {"a": 2, "b": 3})
        summary["results"]["add"] = added.structured_content
        counted = await client.call_tool("count", {"steps": 3}, progress_callback=on_progress)
        summary["results"]["count"] = counted.content[0].text
        failed = await client.call_tool("fail", {"reason": "testing"})
        summary["results"]["fail"] = {"isError": failed.is_error}
        invalid = await client.call_tool("add", {"a": "two"})
        summary["results"]["invalid"] = {"isError": invalid.is_error}
    summary["finished"] = True
    return summary


if __name__ == "__main__":
    separator = sys.argv.index("--") if "--" in sys.argv else -1
    command = sys.argv[separator + 1 :]
    if separator < 0 or not command:
        print("usage: python peers/mcp/py_client.py -- COMMAND [ARGS...]", file=sys.stderr)
        sys.exit(2)
    result = asyncio.run(main(command))
    print(json.dumps(result))
    sys.exit(0 if result["finished"] else 1)
