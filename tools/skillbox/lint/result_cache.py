"""`skillbox lint --cache`: reuse the printed result of an identical earlier run whose inputs have not changed.

Opt-in, like `eslint --cache`; a plain `skillbox lint` never reads or writes it, and the bench's headline figure
is always the cold run. An entry is keyed by everything that can change the output besides the files: the
arguments, the working directory (paths print relative to it), the interpreter, the skillbox version and folder,
whether stdout is a terminal and the `SKILLBOX_*` and `PATH` environment. Its inputs are not guessed: while the cold run
lints, every path it stats, opens or lists is recorded (an audit hook for `open` / `os.scandir` / `os.listdir`,
and `os.stat` / `os.lstat` wrapped for the run) with its signature taken before the access: the composition
files, every linked script, sub-composition and asset whose existence or content a rule checks, the config files
looked for up the tree, `ffprobe` on PATH, and each listed folder (its change time moves when an entry is added
or removed; a folder that was only stat'ed counts just as being that folder). The entry also names the source
file of every module the run had loaded (skillbox, tinycss2, the tree-sitter bindings), so editing or upgrading
any of them invalidates it. A later run with the same key is a hit only if every recorded path still has the
same kind, size, inode, modification and change time (or is still absent), and every path that had changed in
the few seconds before the cold run (`RACY_NS`) the same content digest; anything else lints cold again.
Runs with a `parse_error` are not stored (a parse may have stopped at its time budget).

Entries live in `$SKILLBOX_LINT_CACHE_DIR`, else `$XDG_CACHE_HOME/skillbox/lint`, else `~/.cache/skillbox/lint`:
never inside the project. One file per key (marshal, written atomically); delete the folder to clear it.
This module imports only `os`, `sys`, `time`, `marshal` and `zlib`, so a hit starts nothing else.
"""

from __future__ import annotations

import marshal
import os
import sys
import time
import zlib

FORMAT = 2
# A path changed less than this before a cold run started may share its time stamps with a later change (FAT
# stamps to 2 s; network file systems' clocks drift a little): its signature also holds a digest of its content,
# if it is no larger than RACY_DIGEST_BYTES (else the entry cannot be trusted and never matches).
RACY_NS = 3_000_000_000
RACY_DIGEST_BYTES = 8 << 20
_recording: dict[tuple[str, str], tuple] | None = None  # (kind, path) -> signature, while a cold run is recorded
_racy_after: int | None = None  # the wall-clock time (ns) from which a change counts as racy, while recording
_hook_installed = False
_real_stat, _real_lstat = os.stat, os.lstat


def cache_dir() -> str:
    explicit = os.environ.get("SKILLBOX_LINT_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "skillbox", "lint")


def run_key(args: list[str]) -> tuple:
    """What the output depends on besides the files read."""
    from skillbox import __version__

    env = tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("SKILLBOX_") or k == "PATH"))
    # Where this skillbox lives: two checkouts of one version run by one interpreter (PYTHONPATH, worktrees)
    # lint differently, and a hit never looks at the code it would have run.
    here = os.path.dirname(os.path.abspath(__file__))
    return (FORMAT, __version__, here, sys.version, sys.executable, tuple(args), os.getcwd(), sys.stdout.isatty(), env)


def _signature(kind: str, path: str, racy_after: int | None = None, content: bool = False) -> tuple:
    """What `path` looks like now. A file or listed folder also carries a digest of what it holds (`_content`)
    when asked to (`content`) or when it changed at or after `racy_after` (a wall-clock time in ns)."""
    try:
        st = _real_lstat(path) if kind == "lstat" else _real_stat(path)  # "stat" and "list" follow links
    except OSError as err:
        return ("absent", err.errno)
    if kind != "list" and st.st_mode & 0o170000 == 0o040000:
        # A folder stat'ed, not listed (`is_dir`, `Path.resolve`): only that it is still this folder matters;
        # its times move whenever any entry in it changes (think /tmp). What is in it counts only when it was
        # listed ("list"), or through the stats of the entries looked up in it.
        return (st.st_mode, st.st_ino)
    signature = (st.st_mode, st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    if content or (racy_after is not None and max(st.st_mtime_ns, st.st_ctime_ns) >= racy_after):
        signature += (_content(kind, path, st.st_mode, st.st_size),)
    return signature


def _content(kind: str, path: str, mode: int, size: int) -> tuple | str | None:
    """A digest of what a recently changed path holds. Its times alone cannot tell a later change apart on a file
    system that stamps to the second (ext4 with 128-byte inodes, HFS+, FAT's 2 s, many network mounts) or to a
    clock tick: an edit of the same size within that step keeps every field of the signature (git's "racily
    clean" entries). None when it cannot be read or is too large to read: such an entry never matches."""
    try:
        if kind == "list":
            names = "\0".join(sorted(os.listdir(path)))
            return ("list", zlib.crc32(names.encode("utf-8", "surrogateescape")), len(names))
        if mode & 0o170000 == 0o120000:
            return os.readlink(path)
        if mode & 0o170000 != 0o100000 or size > RACY_DIGEST_BYTES:
            return None
        with open(path, "rb") as handle:
            data = handle.read()
    except (OSError, ValueError):
        return None
    return (zlib.crc32(data), zlib.adler32(data), len(data))


def _unchanged(kind: str, path: str, stored) -> bool:
    """Does `path` still look as it did when recorded (`stored`, a `_signature`)?"""
    with_content = type(stored) is tuple and len(stored) == 6
    if with_content and stored[5] is None:
        return False  # it was changing and could not be read: the run's view of it is unknown
    return _signature(kind, path, content=with_content) == stored


def _entry_path(key: tuple) -> str:
    # From the key's text: marshal's bytes for an equal key differ with its strings' interning and reference
    # counts (arguments from sys.argv or from code constants), which would file one run under several names.
    blob = repr(key).encode("utf-8", "surrogateescape")
    return os.path.join(cache_dir(), f"{zlib.crc32(blob):08x}{zlib.adler32(blob):08x}.bin")


def lookup(key: tuple) -> tuple[str, str, int] | None:
    """(stdout, stderr, exit code) of the stored run for `key` if none of its inputs changed, else None."""
    try:
        with open(_entry_path(key), "rb") as handle:
            entry = marshal.loads(handle.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    try:
        if entry["key"] != key:
            return None
        for kind, path, signature in entry["inputs"]:
            if not _unchanged(kind, path, signature):
                return None
        stdout, stderr, code = entry["stdout"], entry["stderr"], entry["code"]
    except (KeyError, TypeError, ValueError):  # an entry from another format, or damaged: lint cold
        return None
    if not (isinstance(stdout, str) and isinstance(stderr, str) and isinstance(code, int)):
        return None
    return stdout, stderr, code


def _record(kind: str, path) -> None:
    global _recording
    if _recording is None or isinstance(path, int):
        return
    try:
        path = os.fsdecode(os.fspath(path))
    except TypeError:
        return
    if (kind, path) not in _recording:
        # Taken before the access it records: if the file changes after this, the next run sees another
        # signature and lints again, never trusting a result computed from other content. The digest of a
        # recently changed file reads it, which must not record (or recurse into) itself.
        recording, _recording = _recording, None
        try:
            recording[(kind, path)] = _signature(kind, path, _racy_after)
        finally:
            _recording = recording


def _audit(event: str, args: tuple) -> None:
    if _recording is None:
        return
    if event == "open":
        _record("stat", args[0])
    elif event in ("os.scandir", "os.listdir"):
        _record("list", args[0] if args and args[0] is not None else ".")


class Recording:
    """Context manager: collect every path the code inside stats, opens or lists."""

    def __enter__(self) -> Recording:
        global _recording, _hook_installed, _racy_after
        if not _hook_installed:
            sys.addaudithook(_audit)  # cannot be removed: it does nothing once `_recording` is None again
            _hook_installed = True
        self._stat, self._lstat = os.stat, os.lstat
        real_stat, real_lstat = self._stat, self._lstat

        def stat(path, *args, **kwargs):
            _record("stat" if kwargs.get("follow_symlinks", True) else "lstat", path)
            return real_stat(path, *args, **kwargs)

        def lstat(path, *args, **kwargs):
            _record("lstat", path)
            return real_lstat(path, *args, **kwargs)

        _racy_after = time.time_ns() - RACY_NS
        _recording = {}
        os.stat, os.lstat = stat, lstat
        return self

    def __exit__(self, *exc) -> None:
        global _recording
        os.stat, os.lstat = self._stat, self._lstat
        self.inputs = [(kind, path, signature) for (kind, path), signature in (_recording or {}).items()]
        _recording = None


def loaded_sources() -> list[tuple[str, str, tuple]]:
    """The source files of the modules a lint run has loaded that can change its output, with signatures."""
    roots = ("skillbox", "tinycss2", "webencodings", "tree_sitter")
    found = []
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in roots or name.split(".")[0].startswith("tree_sitter"):
            file = getattr(module, "__file__", None)
            if file:
                found.append(("stat", file, _signature("stat", file, _racy_after)))
    return found


def store(key: tuple, inputs: list[tuple[str, str, tuple]], stdout: str, stderr: str, code: int) -> None:
    """Keep a finished run with the signatures its inputs had when it first touched them."""
    first_seen: dict[tuple[str, str], tuple] = {}
    for kind, path, signature in inputs:
        first_seen.setdefault((kind, path), signature)  # taken before the run read it (a module's source may repeat)
    entry = {
        "key": key,
        "inputs": [(kind, path, signature) for (kind, path), signature in first_seen.items()],
        "stdout": stdout,
        "stderr": stderr,
        "code": code,
    }
    target = _entry_path(key)
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        temporary = f"{target}.{os.getpid()}.tmp"
        with open(temporary, "wb") as handle:
            handle.write(marshal.dumps(entry))
        os.replace(temporary, target)
    except OSError:
        pass  # a cache that cannot be written only costs the next run its speed
