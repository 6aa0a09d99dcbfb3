"""Every time limit of the memory store, in one place, derived from the hook timeout Claude Code enforces.

A hook that outlives its `timeout` is killed and its event is lost, so nothing a hook does may wait anywhere near
it. The chain, from the outside in:

- `HOOK_TIMEOUT_SECONDS` is the `timeout` of every memory hook in hooks/hooks.json (a test checks they agree).
- The per-call hooks (UserPromptSubmit, PostToolUse[Failure]) only append to the spool from bin/skillbox (no
  Python): a few milliseconds. Stop, SessionStart and SessionEnd run Python and store the spool first.
- A hook waits at most `HOOK_WRITE_SECONDS` for SQLite's write lock (busy_timeout in slices of `BUSY_SLICE_MS`,
  retried until that deadline); if the lock is still held, it appends the event to the spool (spool.py) and
  returns. The next process that can write drains the spool, spending at most `DRAIN_SECONDS` on it (about a
  thousand events: a long turn's tool calls); what is left then goes on in a detached `mem hook drain`.
- Long writers (`mem import`, `mem prune`, migrations run by `mem hook drain`) commit at least every
  `BATCH_SECONDS`, so the lock is never held long enough to push a hook onto the spool in the first place.
- CLI commands (`mem add`, `import`, ...) are not killed by anyone, so they may wait `CLI_WRITE_SECONDS`.

Worst case for a hook: interpreter start (~0.05 s, ~0.5 s on a loaded machine) + `HOOK_WRITE_SECONDS` +
`DRAIN_SECONDS` + the spool append, which stays below half of `HOOK_TIMEOUT_SECONDS` (`tests/mem` checks it).
"""

HOOK_TIMEOUT_SECONDS = 5
HOOK_WRITE_SECONDS = 0.5
DRAIN_SECONDS = 1.5
CLI_WRITE_SECONDS = 30.0
BATCH_SECONDS = 0.2
BUSY_SLICE_MS = 100
# Interpreter start and imports on a loaded machine, as budgeted above (measured p95 ~0.1 s, x5 for load).
STARTUP_ALLOWANCE_SECONDS = 0.5


def hook_worst_case_seconds() -> float:
    return STARTUP_ALLOWANCE_SECONDS + HOOK_WRITE_SECONDS + DRAIN_SECONDS
