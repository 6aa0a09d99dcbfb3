"""The agents `skillbox install --platform NAME` knows, as data: where each keeps skills, MCP servers and hooks.

One row per agent. Everything the installer writes, the uninstaller removes, and the README's "Use with other
agents" section says comes from these rows, so they cannot disagree. Every path and shape here follows the agent's
own documentation as read on the date in `SOURCES_CHECKED`; docs/platforms.md lists the pages and what each row
relies on, and where a detail could not be checked against the real agent.

Skills: Codex, Gemini CLI, OpenCode and Copilot CLI all document `.agents/skills/` (project) and
`~/.agents/skills/` (user), so they share one copy there: two copies of one skill make Gemini CLI warn about a
conflict at every start. The installer keeps a shared file while another agent's install still lists it.

Paths: `project` is relative to the project folder, `user` to the home folder; `env` names a variable that moves
the agent's home folder (e.g. CODEX_HOME), replacing the row's first path component.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SOURCES_CHECKED = "2026-12-01"

# skillbox mem hook EVENT arguments, in the order of a session.
MEM_EVENTS = ("session-start", "user-prompt-submit", "post-tool-use", "stop", "session-end")


@dataclass(frozen=True)
class Location:
    project: str | None
    user: str | None
    env: str | None = None  # variable that replaces the user path's first component (the agent's home)


@dataclass(frozen=True)
class McpSpec:
    """Where MCP servers go and how one entry looks.

    `style`: "command-args" ({"command": ..., "args": [...]}), "copilot" (the same plus type "local" and
    tools ["*"]), "opencode" ({"type": "local", "command": [cmd, *args], "enabled": true}).
    `key`: the path of the table holding the servers inside the file."""

    file: Location
    format: str  # "json" | "toml"
    key: tuple[str, ...]
    style: str


@dataclass(frozen=True)
class HooksSpec:
    """Lifecycle hooks: the agent's event name for each `skillbox mem hook` event it has.

    `style`: "claude" (event -> [{"matcher"?, "hooks": [{"type": "command", "command"}]}] under "hooks"),
    "cursor" ({"version": 1, "hooks": {event: [{"command"}]}}), "copilot" (a file of our own:
    {"version": 1, "hooks": {event: [{"type": "command", "bash", "timeoutSec"}]}})."""

    file: Location
    style: str
    events: dict[str, str]  # skillbox event -> the agent's event name
    feature_flag: tuple[str, ...] | None = None  # a TOML key set to true in the MCP file to switch hooks on


@dataclass(frozen=True)
class Platform:
    name: str
    label: str
    skills: Location
    mcp: McpSpec | None
    hooks: HooksSpec | None
    # Said plainly wherever an agent lacks something (hooks at all, or at one scope) and what memory then records.
    gaps: tuple[str, ...] = ()
    check_command: tuple[str, ...] = ()  # the agent's own CLI that lists what we installed (run in tests)
    sources: tuple[str, ...] = field(default_factory=tuple)


PLATFORMS: dict[str, Platform] = {
    "codex": Platform(
        name="codex",
        label="Codex CLI",
        skills=Location(".agents/skills", ".agents/skills"),
        mcp=McpSpec(Location(".codex/config.toml", ".codex/config.toml", "CODEX_HOME"), "toml", ("mcp_servers",),
                    "command-args"),
        hooks=HooksSpec(
            Location(".codex/hooks.json", ".codex/hooks.json", "CODEX_HOME"),
            "claude",
            {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit",
             "post-tool-use": "PostToolUse", "stop": "Stop"},
        ),
        gaps=(
            "Codex has no SessionEnd event: the turn summary is written at Stop.",
            "Codex reads a project's .codex/ files only once you trust the project, and asks you to trust new hooks.",
        ),
        check_command=("codex", "mcp", "list", "--json"),
        sources=("https://developers.openai.com/codex/skills", "https://developers.openai.com/codex/mcp",
                 "https://developers.openai.com/codex/hooks"),
    ),
    "cursor": Platform(
        name="cursor",
        label="Cursor",
        skills=Location(".cursor/skills", ".cursor/skills"),
        mcp=McpSpec(Location(".cursor/mcp.json", ".cursor/mcp.json"), "json", ("mcpServers",), "command-args"),
        hooks=HooksSpec(
            Location(".cursor/hooks.json", ".cursor/hooks.json"),
            "cursor",
            {"session-start": "sessionStart", "user-prompt-submit": "beforeSubmitPrompt",
             "post-tool-use": "postToolUse", "stop": "stop", "session-end": "sessionEnd"},
        ),
        gaps=(
            "Cursor's hook payloads are not Claude Code's (conversation_id, not session_id): memory records what "
            "`skillbox mem hook` recognises in them; not checked against a running Cursor (it needs a login).",
        ),
        sources=("https://cursor.com/docs/context/skills", "https://cursor.com/docs/context/mcp",
                 "https://cursor.com/docs/agent/hooks"),
    ),
    "gemini": Platform(
        name="gemini",
        label="Gemini CLI",
        skills=Location(".agents/skills", ".agents/skills"),
        mcp=McpSpec(Location(".gemini/settings.json", ".gemini/settings.json"), "json", ("mcpServers",),
                    "command-args"),
        hooks=HooksSpec(
            Location(".gemini/settings.json", ".gemini/settings.json"),
            "claude",
            {"session-start": "SessionStart", "user-prompt-submit": "BeforeAgent", "post-tool-use": "AfterTool",
             "stop": "AfterAgent", "session-end": "SessionEnd"},
        ),
        gaps=(
            "Gemini CLI's tool names (run_shell_command, read_file...) are not Claude Code's: memory records prompts, "
            "turn summaries and each tool call as a raw event, but makes no observations from them (found by feeding "
            "`skillbox mem hook` payloads written from Gemini's documented fields; not seen from a live session).",
        ),
        check_command=("gemini", "mcp", "list"),
        sources=("https://geminicli.com/docs/cli/skills", "https://geminicli.com/docs/tools/mcp-server",
                 "https://geminicli.com/docs/hooks/reference"),
    ),
    "opencode": Platform(
        name="opencode",
        label="OpenCode",
        skills=Location(".agents/skills", ".agents/skills"),
        mcp=McpSpec(Location("opencode.json", ".config/opencode/opencode.json"), "json", ("mcp",), "opencode"),
        hooks=None,
        gaps=(
            "OpenCode has no lifecycle hooks in its configuration (only JavaScript plugins), so nothing is "
            "captured automatically: memory holds what the agent records itself through the mem MCP tools or "
            "`skillbox mem add`, and earlier sessions are searchable with the mem tools.",
        ),
        check_command=("opencode", "mcp", "list"),
        sources=("https://opencode.ai/docs/skills", "https://opencode.ai/docs/mcp-servers"),
    ),
    "copilot": Platform(
        name="copilot",
        label="GitHub Copilot CLI",
        skills=Location(".agents/skills", ".agents/skills"),
        mcp=McpSpec(Location(None, ".copilot/mcp-config.json", "COPILOT_HOME"), "json", ("mcpServers",), "copilot"),
        hooks=HooksSpec(
            Location(".github/hooks/skillbox.json", None),
            "copilot",
            {"session-start": "sessionStart", "user-prompt-submit": "userPromptSubmitted",
             "post-tool-use": "postToolUse", "session-end": "sessionEnd"},
        ),
        gaps=(
            "Copilot CLI documents MCP servers only per user (~/.copilot/mcp-config.json): --project installs "
            "skills and hooks but no MCP servers; run `skillbox install --platform copilot --user` for those.",
            "Copilot CLI loads hooks only from the repository (.github/hooks/): --user installs no hooks, so "
            "memory then holds only what the agent records through the mem MCP tools.",
            "Copilot's hook payloads are not Claude Code's (camelCase fields): memory records what "
            "`skillbox mem hook` recognises in them; not checked against a running Copilot (it needs a login).",
        ),
        check_command=("copilot", "mcp", "list"),
        sources=("https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/create-skills",
                 "https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference",
                 "https://www.developersdigest.tech/reference/copilot-cli/config-files"),
    ),
}  # fmt: skip

MCP_SERVERS = {"skillbox-graph": ("graph", "mcp"), "skillbox-mem": ("mem", "mcp")}


def known() -> str:
    return ", ".join(PLATFORMS)
