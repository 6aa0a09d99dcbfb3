"""File-system paths of the lint as plain strings, with the meaning `pathlib` gives them.

`pathlib` costs a per-project `skillbox lint` process about a tenth of its instructions (it imports `fnmatch`,
`urllib.parse` and `ipaddress`), and the lint needs only joins, parents and "is this inside that". So the engine,
the documents and the rules keep paths as `str`, written the way `str(Path(p))` writes them (no `.` parts, no
doubled or trailing slash; `..` kept), and these helpers do what the `Path` methods did, on POSIX.
tests/lint/test_paths.py checks them against `pathlib` itself.
"""

from __future__ import annotations

import os


def clean(path) -> str:
    """`str(Path(path))`: the path as pathlib spells it (accepts str or any os.PathLike)."""
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if not text:
        return "."
    parts = [p for p in text.split("/") if p and p != "."]
    if not text.startswith("/"):
        return "/".join(parts) or "."
    # POSIX keeps exactly two leading slashes (implementation-defined root), folds three or more into one.
    root = "//" if text.startswith("//") and not text.startswith("///") else "/"
    return root + "/".join(parts)


def join(base: str, *names: str) -> str:
    """`str(Path(base, *names))`: an absolute name replaces what came before it."""
    return clean(os.path.join(base, *names))


def parent(path: str) -> str:
    """`str(Path(path).parent)` of a cleaned path."""
    root = "//" if path.startswith("//") else "/" if path.startswith("/") else ""
    rest = path[len(root) :]
    if "/" not in rest:
        return root or "."
    return root + rest.rpartition("/")[0]


def name(path: str) -> str:
    """`Path(path).name` of a cleaned path."""
    return "" if path in ("/", "//", ".") else path.rpartition("/")[2]


def suffix(path: str) -> str:
    """`Path(path).suffix`: the last `.ext` of the name, '' for none, for a dot-file or a name ending in '.'."""
    base = name(path)
    dot = base.rfind(".")
    if 0 < dot < len(base) - 1:
        return base[dot:]
    return ""


def parts(path: str) -> list[str]:
    """`Path(path).parts` of a cleaned path, as a list (the root is its first part)."""
    if path == ".":
        return []
    if path.startswith("/"):
        root = "//" if path.startswith("//") else "/"
        rest = path[len(root) :]
        return [root, *rest.split("/")] if rest else [root]
    return path.split("/")


def sort_key(path: str) -> list[str]:
    """The order `sorted()` gives `Path` objects (part by part, not character by character)."""
    return parts(path)


def is_under(path: str, folder: str) -> bool:
    """`Path(path).is_relative_to(folder)` for cleaned paths (purely lexical, like pathlib)."""
    return relative(path, folder) is not None


def relative(path: str, folder: str) -> str | None:
    """`str(Path(path).relative_to(folder))` for cleaned paths, or None where pathlib raises ValueError."""
    inside = parts(folder)
    mine = parts(path)
    if mine[: len(inside)] != inside or (not inside and path.startswith("/")):  # '.' holds no absolute path
        return None
    return "/".join(mine[len(inside) :]) or "."


def resolve(path: str) -> str:
    """`str(Path(path).resolve())`: absolute, symlinks followed, missing tails kept."""
    return os.path.realpath(path)


def parents(path: str) -> list[str]:
    """`Path(path).parents` of a cleaned path, nearest first."""
    out = []
    current = path
    while True:
        up = parent(current)
        if up == current:
            return out
        out.append(up)
        current = up


def walk(root: str) -> list[str]:
    """Every entry below root, hidden ones included, without descending into symlinked folders (as 3.11's
    `Path(root).rglob("*")` does not), in no particular order: what `rglob` gave the lint, without pathlib's
    import cost. Folders that cannot be listed are skipped, as rglob skips them."""
    found: list[str] = []
    pending = [root]
    while pending:
        current = pending.pop()
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            path = join(current, entry.name)
            found.append(path)
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(path)
            except OSError:
                continue
    return found
