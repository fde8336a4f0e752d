"""The Python `mcp` 2.3.0 server that tools/test/peers/python-mcp-server.mjs replays: two tools that ask their
client the 2025 way, as the SDK's documentation shows. Run by a venv's python with the port as its argument
(TOOLMESH_PYTHON_MCP, in the specs that meet the real server)."""

import sys

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import SamplingMessage, TextContent
from pydantic import BaseModel

mcp = MCPServer("python-sdk-server")


class Name(BaseModel):
    name: str


@mcp.tool()
async def ask_name(ctx: Context) -> str:
    """Elicitation, imperative (server request)."""
    r = await ctx.elicit("What is your name?", Name)
    return f"hello {r.data.name}" if r.action == "accept" else f"no name ({r.action})"


@mcp.tool()
async def summarize(text: str, ctx: Context) -> str:
    """Sampling, imperative (server request)."""
    r = await ctx.session.create_message(
        [SamplingMessage(role="user", content=TextContent(type="text", text=f"Summarize: {text}"))], max_tokens=50
    )
    return f"summary: {r.content.text}"


mcp.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
