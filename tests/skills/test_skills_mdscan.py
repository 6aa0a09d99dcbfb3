"""The markdown scanners find the commands and paths an agent would act on, and nothing in plain prose."""

from __future__ import annotations

from skillbox.skills import find_command_mentions, find_path_mentions

TEXT = """# Title

The skillbox CLI does the work; run `skillbox graph query "who calls x" [--budget TOKENS] [--json]`.

```sh
$ SKILLBOX_HOME=/tmp/h skillbox mem search "auth" --limit 5 | jq . && echo skillbox done
python3 -m skillbox tour
"${CLAUDE_PLUGIN_ROOT}/bin/skillbox" --version
```

~~~text
skillbox lint rules
~~~
See [the guide](references/guide.md#top), ![fig](assets/fig.png "Figure"), https://example.org/scripts/x.py,
`scripts/run.py`, [docs](https://example.org/a), [anchor](#here), and `references/<topic>.md`.
Do not reuse `../other-skill/scripts/tool.py`. Output lands in `skillbox-out/graph.json` and `./src`.
"""


def test_command_mentions_with_lines_and_usage_brackets_removed():
    found = [(mention.line, mention.argv) for mention in find_command_mentions(TEXT)]
    assert found == [
        (3, ("graph", "query", "who calls x", "--budget", "TOKENS", "--json")),
        (6, ("mem", "search", "auth", "--limit", "5")),
        (7, ("tour",)),
        (8, ("--version",)),
        (12, ("lint", "rules")),
    ]


def test_first_line_offsets_line_numbers():
    assert find_command_mentions("`skillbox tour`", first_line=40)[0].line == 40


def test_prose_mentions_are_not_commands():
    assert find_command_mentions("Use skillbox graph build when the graph is stale.") == []


def test_path_mentions():
    found = [(mention.line, mention.path, mention.from_plugin_root) for mention in find_path_mentions(TEXT)]
    assert found == [
        (8, "bin/skillbox", True),
        (14, "references/guide.md", False),
        (14, "assets/fig.png", False),
        (15, "scripts/run.py", False),
        (16, "../other-skill/scripts/tool.py", False),
    ]


def test_links_inside_code_blocks_are_not_paths():
    assert find_path_mentions("```\n[x](missing.md)\n```\n") == []


def test_link_targets_are_url_decoded():
    assert find_path_mentions("[x](references/my%20notes.md)")[0].path == "references/my notes.md"
