# Recorder of tests/fixtures/mcp/fastmcp/ (see its PROVENANCE.md).
"""A fastmcp server with typed tools: a recursive tree model (pydantic), an enum, nested objects."""
from __future__ import annotations

from enum import Enum

from fastmcp import FastMCP
from pydantic import BaseModel

mcp = FastMCP("trees")


class Node(BaseModel):
    name: str
    children: list[Node] = []


class Color(str, Enum):
    red = "red"
    green = "green"


class Stats(BaseModel):
    nodes: int
    depth: int


@mcp.tool
def measure(tree: Node) -> Stats:
    """Count the nodes of a tree and its depth."""
    def walk(node: Node) -> tuple[int, int]:
        counts = [walk(child) for child in node.children]
        return 1 + sum(c[0] for c in counts), 1 + max((c[1] for c in counts), default=0)
    nodes, depth = walk(tree)
    return Stats(nodes=nodes, depth=depth)


@mcp.tool
def paint(color: Color, times: int = 1) -> str:
    """Paint."""
    return color.value * times


if __name__ == "__main__":
    mcp.run(show_banner=False)
