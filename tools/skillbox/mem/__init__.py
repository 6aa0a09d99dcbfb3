"""Persistent memory for Claude Code: hooks capture what happened, SQLite FTS5 finds it again.

The hook path (`skillbox.mem.hook`) is run once per tool call, so every module it imports keeps to the standard
library and compiles nothing expensive at import time. Search, context, import/export and the MCP server are
loaded only by the commands that use them.
"""
