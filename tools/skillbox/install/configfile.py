"""Reading and writing an agent's config file without losing what the user wrote in it.

JSON files are parsed strictly and written back with two-space indentation; a file with comments (JSONC) is
refused rather than rewritten, because writing it back would drop the comments. TOML goes through tomlkit, which
keeps comments, order and formatting of everything it does not touch. A file that does not parse is an error that
names the file; nothing is written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skillbox.errors import InvalidInputError


def _has_comments(text: str) -> bool:
    """True when `text` has // or /* */ outside strings (what JSONC allows and JSON does not)."""
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "/" and text[i + 1 : i + 2] in ("/", "*"):
            return True
    return False


def load(path: Path, fmt: str, raw: bytes | None) -> Any:
    """The parsed document (a dict, or a tomlkit document); an empty one when the file does not exist."""
    if fmt == "toml":
        import tomlkit

        if raw is None:
            return tomlkit.document()
        try:
            return tomlkit.parse(raw.decode("utf-8"))
        except (UnicodeDecodeError, tomlkit.exceptions.ParseError) as err:
            raise InvalidInputError(f"{path} is not valid TOML ({err}); nothing was written") from None
    if raw is None or not raw.strip():
        return {}
    try:
        text = raw.decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError as err:
        raise InvalidInputError(f"{path} is not UTF-8 text ({err}); nothing was written") from None
    except ValueError as err:
        if _has_comments(text):
            raise InvalidInputError(
                f"{path} has comments (JSONC); skillbox does not rewrite it because the comments would be lost; "
                "nothing was written",
                hint="remove the comments, or add the entries `--dry-run --json` shows by hand",
            ) from None
        raise InvalidInputError(f"{path} is not valid JSON ({err}); nothing was written") from None
    if not isinstance(data, dict):
        raise InvalidInputError(f"{path} holds a JSON {type(data).__name__}, not an object; nothing was written")
    return data


def dump(doc: Any, fmt: str) -> bytes:
    if fmt == "toml":
        import tomlkit

        return tomlkit.dumps(doc).encode("utf-8")
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def is_empty(doc: Any) -> bool:
    return len(doc) == 0


def get_path(doc: Any, path: tuple[str, ...]) -> Any:
    node = doc
    for key in path:
        if not hasattr(node, "get"):
            return None
        node = node.get(key)
        if node is None:
            return None
    return node


def is_inline(node: Any) -> bool:
    """True for a TOML inline table (`mcp_servers = { other = {...} }`): it can hold only inline tables."""
    from tomlkit.items import InlineTable

    return isinstance(node, InlineTable)


def ensure_table(doc: Any, path: tuple[str, ...], fmt: str) -> Any:
    """The table at `path`, created (as a TOML super-table where possible, inline inside an inline table) when
    missing."""
    node = doc
    for depth, key in enumerate(path):
        child = node.get(key)
        if child is None:
            if fmt == "toml":
                import tomlkit

                if is_inline(node):
                    child = tomlkit.inline_table()
                else:
                    child = tomlkit.table(is_super_table=depth < len(path) - 1 or len(path) == 1)
            else:
                child = {}
            node[key] = child
            child = node[key]
        elif not hasattr(child, "get"):
            raise InvalidInputError(f"'{'.'.join(path[: depth + 1])}' is not a table; nothing was written")
        node = child
    return node


def to_toml_value(value: Any, *, inline: bool = False) -> Any:
    """A plain dict entry as a tomlkit table (so it renders as [a.b] with key = value lines), or as an inline
    table when it goes into one (the user wrote `mcp_servers = { ... }`: we merge in their style)."""
    import tomlkit

    if isinstance(value, dict):
        table = tomlkit.inline_table() if inline else tomlkit.table()
        for key, item in value.items():
            table[key] = item
        return table
    return value


def prune(doc: Any, path: tuple[str, ...]) -> None:
    """Remove the tables along `path` that are now empty, deepest first."""
    for depth in range(len(path), 0, -1):
        parent = get_path(doc, path[: depth - 1]) if depth > 1 else doc
        node = get_path(doc, path[:depth])
        if parent is not None and node is not None and hasattr(node, "get") and len(node) == 0:
            del parent[path[depth - 1]]
