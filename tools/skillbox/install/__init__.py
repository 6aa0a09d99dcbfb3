"""Installing skillbox's skills, MCP servers and memory hooks into other coding agents (no click here).

`platforms.PLATFORMS` is the one table of agents; `engine.plan_install` / `plan_uninstall` compute the changes and
`engine.apply` writes them all or none.
"""
