"""What both stdio MCP servers (graph, mem) need from the MCP SDK, across its 1.x and 2.x APIs.

Tools return text that is already formatted for a reader; `text_tool` registers them without structured output,
so a client shows the text itself rather than `{"result": "..."}` with escaped newlines (seen in Claude Code).
"""

from __future__ import annotations

import inspect


def server_class():
    """The SDK's high-level server: MCPServer in mcp >= 2, FastMCP in 1.x."""
    try:
        from mcp.server.mcpserver import MCPServer

        return MCPServer
    except ImportError:  # mcp 1.x
        from mcp.server.fastmcp import FastMCP

        return FastMCP


def tool_error_class():
    """The exception a tool raises for a result with isError=true."""
    try:
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:  # mcp 1.x
        from mcp.server.fastmcp.exceptions import ToolError
    return ToolError


def text_tool(server, **options):
    """`server.tool(...)` for a tool that returns plain text (no structured output where the SDK offers that)."""
    if "structured_output" in inspect.signature(server.tool).parameters:
        options.setdefault("structured_output", False)
    return server.tool(**options)


def guarded(fn, *args):
    """Run a tool body: our user errors (an unknown node, a missing graph, a negative limit, a bad date) become a
    one-line result with isError=true, so the client can tell a failed call from an answer; never a traceback.
    The SDK puts "Error executing tool NAME: " in front of the message, so it is not prefixed "Error:" again."""
    from skillbox.errors import SkillboxError

    try:
        return fn(*args)
    except SkillboxError as err:
        raise tool_error_class()(err.one_line()) from None
