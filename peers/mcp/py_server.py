"""A small MCP server on the official Python SDK (`mcp` 2.x, `MCPServer`), over stdio.

`python peers/mcp/py_server.py`. Tools: `add` (structured output: the SDK writes the floats),
`count` (progress notifications while it counts), `fail` (a tool execution error, `isError: true`). The SDK
writes every message; nothing here builds JSON.
"""

import asyncio

from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer("toolcall-contracts-py-server", version="0.0.0", log_level="CRITICAL")


class Sum(BaseModel):
    """The sum of two numbers."""

    total: float


@server.tool(title="Add", description="Adds two numbers.")
def add(a: float, b: float) -> Sum:
    return Sum(total=a + b)


@server.tool(title="Count", description="Counts to `steps`, reporting progress at each step.")
async def count(steps: int, ctx: Context) -> str:
    for step in range(1, steps + 1):
        await asyncio.sleep(0.02)
        await ctx.report_progress(step, steps, f"step {step} of {steps}")
    return f"counted to {steps}"


@server.tool(title="Fail", description="Always fails.")
def fail(reason: str) -> str:
    raise ToolError(f"failed on purpose: {reason}")


if __name__ == "__main__":
    server.run("stdio")
