# Recorder of tests/fixtures/mcp/fastmcp/ (see its PROVENANCE.md).
"""MCP client (official Python SDK) calling the tree server with a 36-level tree."""
import asyncio, json, sys
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

def tree(depth):
    node = {"name": f"n{depth}", "children": []}
    for d in range(depth - 1, 0, -1):
        node = {"name": f"n{d}", "children": [node]}
    return node

async def main():
    sep = sys.argv.index("--")
    cmd, *args = sys.argv[sep + 1:]
    async with stdio_client(StdioServerParameters(command=cmd, args=args)) as (r, w):
        async with ClientSession(r, w) as s:
            init = await s.initialize()
            tools = await s.list_tools()
            out = {"version": init.protocol_version, "tools": [t.name for t in tools.tools]}
            res = await s.call_tool("measure", {"tree": tree(36)})
            out["measure"] = res.structured_content
            res = await s.call_tool("paint", {"color": "red", "times": 2})
            out["paint"] = [c.text for c in res.content]
            res = await s.call_tool("paint", {"color": "blue"})
            out["paint_error"] = res.is_error
            print(json.dumps(out))

asyncio.run(main())
