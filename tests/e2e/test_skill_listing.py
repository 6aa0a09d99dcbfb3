"""What the model is told about the bundle: the skill listing in the first request of a real session.

Claude Code 2.1.332 sends "The following skills are available for use with the Skill tool:" followed by one
`- name: description` line per skill and slash command. The listing has a character budget (measured about
28.8k characters for the whole listing, built-in entries included); the user's own skills come first, plugin
entries after, and an entry past the budget is listed as a bare name. So every skillbox entry must carry its
full description alone AND next to a crowded personal setup: 40 user skills of 440 characters.
"""

from __future__ import annotations

import json

import yaml

from tests.e2e.claude_harness import REPO, install_plugin

MARK = "The following skills are available for use with the Skill tool:"
USER_SKILLS, USER_DESCRIPTION_CHARS = 40, 440


def frontmatter(path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---", 2)[1])


def bundle_entries() -> dict[str, str]:
    """`skillbox:<name>` -> the description Claude Code should list, for every skill and slash command."""
    entries = {}
    for path in sorted((REPO / "skills").glob("*/SKILL.md")):
        meta = frontmatter(path)
        entries[f"skillbox:{meta['name']}"] = meta["description"]
    for path in sorted((REPO / "commands").glob("*.md")):
        entries[f"skillbox:{path.stem}"] = frontmatter(path)["description"]
    return entries


def user_skill_description(i: int) -> str:
    words = f"Team helper {i:02d}: formats weekly status records, converts exported files between formats, "
    words += "checks naming and date conventions, drafts short summaries for the team channel and reports problems "
    while len(words) < USER_DESCRIPTION_CHARS:
        words += "with the file and line where each problem was found "
    return words[:USER_DESCRIPTION_CHARS].strip()


def listing_of(requests: list[dict]) -> dict[str, str | None]:
    """name -> description (None for a bare name) from the first request that carries the listing."""
    for request in requests:
        text = next((t for t in _strings(request) if MARK in t), None)
        if text is None:
            continue
        entries = {}
        for line in text.split(MARK, 1)[1].splitlines():
            if not line.startswith("- "):
                if entries and line.strip() and not line.startswith(" "):
                    break  # the listing ended
                continue
            name, sep, description = line[2:].partition(": ")
            entries[name.strip()] = description if sep else None
        return entries
    raise AssertionError("no request carried the skill listing")


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def first_listing(run_claude, run_session, fake_api, plugin_source, home, project):
    install_plugin(run_claude, home, plugin_source)
    # hooks are not what this test is about; without them no session starts a venv build in the background
    settings = home / ".claude" / "settings.json"
    data = json.loads(settings.read_text()) if settings.exists() else {}
    settings.write_text(json.dumps({**data, "disableAllHooks": True}))
    project.mkdir(exist_ok=True)
    session = run_session("hello", home=home, cwd=project)
    assert session.returncode == 0, session.stderr
    return listing_of(fake_api.message_requests())


def assert_every_entry_has_its_full_description(listing: dict[str, str | None]) -> None:
    expected = bundle_entries()
    missing = sorted(set(expected) - set(listing))
    bare = sorted(name for name in expected if name in listing and listing[name] is None)
    changed = sorted(n for n, d in expected.items() if listing.get(n) not in (None, d.strip()))
    assert (missing, bare, changed) == ([], [], []), f"missing {missing}, bare names {bare}, cut {changed}"


def test_alone_every_skill_and_command_is_listed_with_its_full_description(
    run_claude, run_session, fake_api, plugin_source, tmp_path
):
    listing = first_listing(run_claude, run_session, fake_api, plugin_source, tmp_path / "home", tmp_path / "p")
    assert_every_entry_has_its_full_description(listing)


def test_next_to_forty_user_skills_every_entry_keeps_its_description(
    run_claude, run_session, fake_api, plugin_source, tmp_path
):
    home = tmp_path / "home"
    for i in range(USER_SKILLS):
        folder = home / ".claude" / "skills" / f"team-helper-{i:02d}"
        folder.mkdir(parents=True)
        description = user_skill_description(i)
        assert len(description) == USER_DESCRIPTION_CHARS
        (folder / "SKILL.md").write_text(f'---\nname: team-helper-{i:02d}\ndescription: "{description}"\n---\nBody.\n')
    listing = first_listing(run_claude, run_session, fake_api, plugin_source, home, tmp_path / "p")
    users = [name for name in listing if name.startswith("team-helper-")]
    assert len(users) == USER_SKILLS and all(listing[name] for name in users), "the crowded setup did not load"
    assert_every_entry_has_its_full_description(listing)
