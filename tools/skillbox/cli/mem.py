"""`skillbox mem`: persistent memory captured from Claude Code hooks (thin click layer over skillbox.mem).

`mem hook` is normally reached through `skillbox.cli.FAST_PATHS` without importing click; the command here gives it
help text and lets `CliRunner` drive it in tests.
"""

from __future__ import annotations

import json
import os
import sys

import click

from skillbox.cli.mem_search_fast import SEARCH, run_search
from skillbox.cli.option_table import click_params
from skillbox.cli.root import LazyGroup
from skillbox.mem import obstypes

# Every integer option is bounded, so no number outside SQLite's integers reaches a query (the message is
# click's one usage error instead of an OverflowError traceback).
COUNT = click.IntRange(max=1_000_000)


def _store():
    from skillbox.mem.store import open_store

    return open_store()


def _settings():
    from skillbox.mem.settings import load_settings

    return load_settings()


def _echo_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _current_project(project: str | None) -> str:
    if project:
        return project
    from skillbox.mem.project import resolve_project

    return resolve_project(os.getcwd(), _settings().project_overrides).name


@click.group("mem", cls=LazyGroup)
def mem() -> None:
    """Persistent memory for Claude Code: hooks record, FTS5 search finds it again.

    Workflow: `search` (compact index) -> `timeline ID` (what happened around it) -> `get ID...` (full records).
    Data lives in $SKILLBOX_HOME/memory.db (default: $CLAUDE_PLUGIN_DATA, else ~/.skillbox).
    """


@mem.command("hook", context_settings={"ignore_unknown_options": True})
@click.argument("event")
def hook_cmd(event: str) -> None:
    """Record one Claude Code hook event read as JSON from stdin; always exits 0.

    EVENT: session-start | user-prompt-submit | post-tool-use | post-tool-use-failure | stop | session-end.
    """
    from skillbox.mem import hook

    sys.exit(hook.main([event]))


@mem.command("search")
@click_params(SEARCH)
def search_cmd(query, kinds, obs_types, project, since, until, file, concept, limit, as_json) -> None:
    """Search memory; prints one line per hit: `#id  date  type  title  ~tokens`.

    Every word must match, in any order, in some inflection (hiking -> hike, hiked); words like "the", "when",
    "did" are ignored; the last word also matches as a prefix (auth -> authentication). If too few records match
    every word, records matching some words follow. With no QUERY, lists the newest records that pass the
    filters. Broad words rank the newest 300 matches of each kind; rare words rank all of theirs.
    """
    click.echo(run_search(query, kinds, obs_types, project, since, until, file, concept, limit, as_json))


@mem.command("timeline")
@click.argument("anchor")
@click.option("--before", default=5, show_default=True, type=COUNT, help="Records before the anchor.")
@click.option("--after", default=5, show_default=True, type=COUNT, help="Records after the anchor.")
@click.option("--project", help="Project to walk (default: the anchor's).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def timeline_cmd(anchor, before, after, project, as_json) -> None:
    """What happened around ANCHOR: an id (12, #12, S3, P7), a session id, or a date (YYYY-MM-DD[THH:MM])."""
    from skillbox.mem.search import format_timeline, timeline

    with _store() as store:
        result = timeline(store, anchor, before=before, after=after, project=project)
    if as_json:
        _echo_json(result.to_dict())
    else:
        click.echo(format_timeline(result))


@mem.command("get")
@click.argument("ids", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def get_cmd(ids, as_json) -> None:
    """Full records for one or more ids in one call: 12 or #12 (observation), S3 (summary), P7 (prompt)."""
    from skillbox.errors import NotFoundError
    from skillbox.mem.search import format_record, get_records

    with _store() as store:
        found, missing = get_records(store, list(ids))
    if as_json:
        _echo_json({"records": found, "missing": missing})
    else:
        click.echo("\n\n".join(format_record(r) for r in found) if found else "", nl=bool(found))
    if missing:
        raise NotFoundError(f"not in memory: {', '.join(missing)}")


@mem.command("add")
@click.option(
    "--type",
    "type_",
    required=True,
    type=click.Choice(obstypes.STATED, case_sensitive=False),
    help="What kind of note: " + obstypes.stated_help() + ".",
)
@click.option("--title", required=True, help="One line: what was decided, found or done.")
@click.option("--narrative", default="", help="The why: context, alternatives, consequences.")
@click.option("--subtitle", default="", help="A short qualifier shown next to the title.")
@click.option("--fact", "facts", multiple=True, help="A short fact (repeatable).")
@click.option("--concept", "concepts", multiple=True, help="A concept tag (repeatable).")
@click.option("--file", "files", multiple=True, help="A file this is about (repeatable).")
@click.option("--project", help="Project (default: the current directory's).")
@click.option("--session", "session_id", default=None, help="Attach to this session id (default: none).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def add_cmd(type_, title, narrative, subtitle, facts, concepts, files, project, session_id, as_json) -> None:
    """Record an observation yourself — decisions and their reasons are what hooks cannot see."""
    from skillbox.mem.capture import record_observation

    settings = _settings()
    project = _current_project(project)
    session_id = session_id or os.environ.get("CLAUDE_CODE_SESSION_ID") or None
    with _store() as store:
        ident = record_observation(
            store,
            type=type_,
            title=title,
            narrative=narrative,
            subtitle=subtitle,
            facts=list(facts),
            concepts=list(concepts),
            files=list(files),
            project=project,
            settings=settings,
            origin="agent",
            session_id=session_id,
        )
    if as_json:
        _echo_json({"id": ident, "ref": f"#{ident}", "project": project})
    else:
        click.echo(f"#{ident} recorded in {project}")


@mem.command("context")
@click.option("--project", help="Project (default: the current directory's).")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the SessionStart hook output JSON, plus `plan`: what went in (whole or trimmed), what was left out.",
)
def context_cmd(project, as_json) -> None:
    """Print exactly the memory block SessionStart injects for a project."""
    from skillbox.mem.context import plan_context

    settings = _settings()
    project = _current_project(project)
    with _store() as store:
        plan = plan_context(store, project, settings)
    if as_json:
        hook = {"hookEventName": "SessionStart", "additionalContext": plan.text}
        _echo_json({"hookSpecificOutput": hook, "plan": plan.to_dict()})
    elif plan.text:
        click.echo(plan.text)


@mem.command("export")
@click.argument("file", required=False, type=click.Path(dir_okay=False, writable=True))
@click.option("--project", help="Only this project.")
def export_cmd(file, project) -> None:
    """Write all memory as JSON lines to FILE (default: stdout)."""
    from skillbox.mem.transfer import export

    with _store() as store:
        if file and file != "-":
            from skillbox.atomic import atomic_open

            with atomic_open(file, binary=False) as out:
                count = export(store, out, project)
            click.echo(f"exported {count} records to {file}", err=True)
        else:
            export(store, sys.stdout, project)


@mem.command("import")
@click.argument("file", type=click.Path(dir_okay=False, exists=True))
@click.option("--from-claude-mem", "from_claude_mem", is_flag=True, help="FILE is a claude-mem SQLite database.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def import_cmd(file, from_claude_mem, as_json) -> None:
    """Import a `mem export` file (or, with --from-claude-mem, claude-mem's claude-mem.db); duplicates are skipped."""
    from skillbox.mem.transfer import import_claude_mem, import_lines

    settings = _settings()
    with _store() as store:
        if from_claude_mem:
            report = import_claude_mem(store, file, redact=settings.redact_secrets)
        else:
            with open(file, encoding="utf-8", errors="replace") as handle:
                report = import_lines(store, handle, redact=settings.redact_secrets)
    if as_json:
        _echo_json(report)
    else:
        for kind, numbers in report.items():
            if numbers["added"] or numbers["skipped"]:
                click.echo(f"{kind:<12} added {numbers['added']:>7}  skipped {numbers['skipped']:>7}")


@mem.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def stats_cmd(as_json) -> None:
    """Counts, size and date range of the memory database, plus the effective settings."""
    from skillbox.mem.maintenance import stats

    settings = _settings()
    with _store() as store:
        data = stats(store)
    data["settings"] = settings.to_dict()
    if as_json:
        _echo_json(data)
        return
    click.echo(f"database   {data['path']}  ({data['bytes'] / 1e6:.1f} MB)")
    for table, count in data["counts"].items():
        click.echo(f"{table:<12} {count}")
    if data["projects"]:
        click.echo("projects   " + ", ".join(f"{p['project']} ({p['observations']})" for p in data["projects"][:10]))
    if data["first_session"]:
        click.echo(f"sessions   {data['first_session'][:10]} .. {data['last_session'][:10]}")
    if data["spooled"]:
        click.echo(f"spooled    {data['spooled']} hook events not stored yet (`skillbox mem hook drain` stores them)")
    for note in data["damaged_stores"]:
        click.echo(f"damaged    moved aside to {note.get('moved_to')} at {note.get('at')}: {note.get('reason')}")


@mem.command("prune")
@click.option(
    "--older-than", type=COUNT, help="Delete sessions (and their records) older than DAYS (default: setting)."
)
@click.option("--events-older-than", type=COUNT, help="Delete raw tool events older than DAYS (default: setting).")
@click.option("--max-mb", type=COUNT, help="Shrink the database below this many MB (default: setting).")
@click.option("--project", help="Only this project.")
@click.option("--vacuum", is_flag=True, help="Rebuild the file afterwards (VACUUM) to return all free space.")
@click.option("--dry-run", is_flag=True, help="Count what would be deleted by age; delete nothing.")
@click.option("--quiet", is_flag=True, help="Print nothing (used by the automatic run after SessionEnd).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def prune_cmd(older_than, events_older_than, max_mb, project, vacuum, dry_run, quiet, as_json) -> None:
    """Apply the retention policy: old raw events, old sessions, size cap; then reclaim the space."""
    from skillbox.mem.maintenance import prune

    settings = _settings()
    with _store() as store:
        report = prune(
            store,
            settings,
            older_than_days=older_than,
            events_older_than_days=events_older_than,
            max_mb=max_mb,
            project=project,
            vacuum=vacuum,
            dry_run=dry_run,
        )
    if quiet:
        return
    if as_json:
        _echo_json(report.to_dict())
        return
    deleted = ", ".join(f"{n} {k}" for k, n in report.deleted.items()) or "nothing"
    verb = "would delete" if dry_run else "deleted"
    click.echo(f"{verb} {deleted}; {report.bytes_before / 1e6:.1f} MB -> {report.bytes_after / 1e6:.1f} MB")


@mem.group("observer", invoke_without_command=True)
@click.pass_context
def observer_group(ctx) -> None:
    """Opt-in observer: after a session ends, a small model writes why-notes (decision, bugfix, discovery, gotcha).

    `on` / `off` switch it; `status` shows the model and today's tokens against the daily cap. It runs headless
    `claude -p` once per session end, detached, with no tools and memory hooks disabled.
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(observer_status)


def _observer_report(as_json: bool) -> None:
    from skillbox.mem import observer
    from skillbox.mem.i18n import detect_language, message
    from skillbox.mem.settings import skillbox_home

    settings = _settings()
    with _store() as store:
        info = observer.status(store, settings, skillbox_home())
        language = detect_language(store, None, settings)
    if as_json:
        _echo_json(info)
        return
    if info["enabled"]:
        click.echo(message(language, "observer.on", model=info["model"], cap=info["daily_token_cap"]))
    else:
        click.echo(message(language, "observer.off"))
    click.echo(
        f"tokens today: {info['tokens_today']:,} of {info['daily_token_cap']:,}; "
        f"digest cap {info['digest_char_cap']:,} chars; command: {' '.join(info['command'])}"
    )
    if info["last_run"]:
        click.echo(f"last run: {info['last_run']}")


@observer_group.command("on")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def observer_on(as_json) -> None:
    """Turn the observer on."""
    from skillbox.mem import observer
    from skillbox.mem.settings import skillbox_home

    observer.switch(skillbox_home(), True)
    _observer_report(as_json)


@observer_group.command("off")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def observer_off(as_json) -> None:
    """Turn the observer off."""
    from skillbox.mem import observer
    from skillbox.mem.settings import skillbox_home

    observer.switch(skillbox_home(), False)
    _observer_report(as_json)


@observer_group.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def observer_status(as_json=False) -> None:
    """On or off, the model, and today's tokens against the daily cap."""
    _observer_report(as_json)


@observer_group.command("run", hidden=True)
@click.argument("session_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def observer_run(session_id, as_json) -> None:
    """Observe one ended session now (SessionEnd starts this detached when the observer is on)."""
    from skillbox.mem import observer
    from skillbox.mem.settings import skillbox_home

    with _store() as store:
        outcome = observer.run(store, _settings(), skillbox_home(), session_id)
    if as_json:
        _echo_json(outcome)
    elif "skipped" in outcome:
        click.echo(f"skipped: {outcome['skipped']}")
    else:
        click.echo(f"observer added {len(outcome['observations'])} observations, {outcome['tokens']:,} tokens")


@mem.command("viewer")
@click.option("--port", default=0, type=click.IntRange(0, 65535), help="Port on 127.0.0.1 (default: a free one).")
@click.option("--language", type=click.Choice(["en", "zh"]), default=None, help="Page language (default: setting).")
def viewer_cmd(port, language) -> None:
    """Browse memory in a local read-only web page: live feed, search, sessions, full records (Ctrl-C stops)."""
    from skillbox.errors import NotFoundError
    from skillbox.mem.settings import db_path
    from skillbox.mem.viewer import make_server

    path = db_path()
    if not os.path.exists(path):
        raise NotFoundError(f"no memory database at {path}", hint="hooks create it on first use")
    try:
        server = make_server(path, port, language, _settings())
    except OSError as err:
        raise click.UsageError(f"cannot listen on 127.0.0.1:{port}: {err.strerror or err}") from None
    click.echo(f"skillbox memory viewer: http://127.0.0.1:{server.server_address[1]}/  (read-only; Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


@mem.command("summarize", hidden=True)
@click.argument("session_id")
def summarize_cmd(session_id) -> None:
    """Run the configured external summarizer on one session (started detached at SessionEnd)."""
    from skillbox.mem.summarizer import run_summarizer

    with _store() as store:
        added = run_summarizer(store, _settings(), session_id)
    click.echo(f"summarizer added {len(added)} observations")


@mem.command("mcp")
def mcp_cmd() -> None:
    """Serve search, timeline and get_observations over MCP (stdio) for agents and other MCP clients."""
    from skillbox.mem.server import serve

    serve()
