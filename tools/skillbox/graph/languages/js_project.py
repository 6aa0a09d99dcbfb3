"""package.json, tsconfig.json / jsconfig.json and pnpm-workspace.yaml as records: what module resolution reads.

A monorepo names its own code by package name (`@acme/core/x`, resolved through the package's `exports`), by a
package's private `imports` (`#compiler`), or by a tsconfig alias (`paths`, `baseUrl`). These files are no
source: the walk hands them over with the language `PROJECT_LANG`, the worker keeps the fields resolution needs
(`PROJECT_KEYS`) as canonical JSON in the record's `doc`, and the resolver reads them from there
(`languages/javascript.py`). They make no nodes. Their interface digest is their content, so editing one
re-resolves every file (`reach.py`).

tsconfig files are JSONC (comments, trailing commas): strict JSON is tried first (every package.json), then
`json5`, a superset of JSONC, so no comment stripper of our own.
"""

from __future__ import annotations

import hashlib

PROJECT_LANG = "jsproject"
WORKSPACE_FILE = "pnpm-workspace.yaml"
# What resolution needs; the rest (scripts, dependencies, compiler flags) would only make records bigger.
PROJECT_KEYS = ("name", "exports", "imports", "main", "module", "types", "typings", "workspaces", "extends")
COMPILER_KEYS = ("paths", "baseUrl")
# What is not strict JSON is parsed in pure Python (json5, yaml); a real tsconfig.json or pnpm-workspace.yaml is a
# few KB, and past this size such a file is skipped as "too_large" (strict JSON of any size is read).
SLOW_PARSE_MAX_BYTES = 64 * 1024
TOO_LARGE = "too_large"


def is_project_file(name: str) -> bool:
    """package.json, tsconfig.json, tsconfig.*.json, jsconfig.json, pnpm-workspace.yaml (a file name)."""
    if name == "package.json" or name == WORKSPACE_FILE:
        return True
    return name.endswith(".json") and name.startswith(("tsconfig", "jsconfig"))


def _load(data: bytes):
    """JSON, else JSONC (by json5), else the `packages` list of a pnpm-workspace.yaml (which is never JSON). None
    when it is none of those, nests deeper than a parser's stack, or is too large for the pure-Python parsers."""
    import orjson

    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        pass
    text = data.decode("utf-8", "replace")
    if text.startswith("\ufeff"):  # a BOM: strict JSON after all, most of the time
        text = text[1:]
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    if not text.strip():
        return {}  # an empty file (a fixture's pnpm-workspace.yaml): nothing to read, nothing wrong
    if len(data) > SLOW_PARSE_MAX_BYTES:
        return TOO_LARGE  # json5 reads ~70 KB/s: a megabyte of JSONC would hold the build for seconds
    import json5

    try:
        return json5.loads(text)
    except (ValueError, RecursionError):
        return _workspace_yaml(text)


def _workspace_yaml(text: str):
    import yaml

    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    packages = data.get("packages")
    if not isinstance(packages, list):
        return {}
    return {"workspaces": [glob for glob in packages if isinstance(glob, str)]}  # globs; nothing else is read


def project_fields(data: bytes) -> dict | str | None:
    """The fields of `PROJECT_KEYS` (and `compilerOptions.paths` / `baseUrl`) of one file, or None when it is
    not a JSON (or JSONC, or workspace YAML) object, or `TOO_LARGE`."""
    loaded = _load(data)
    if loaded is TOO_LARGE:
        return TOO_LARGE
    if not isinstance(loaded, dict):
        return None
    fields = {key: loaded[key] for key in PROJECT_KEYS if key in loaded}
    options = loaded.get("compilerOptions")
    if isinstance(options, dict):
        kept = {key: options[key] for key in COMPILER_KEYS if key in options}
        if kept:
            fields["compilerOptions"] = kept
    return fields


def extract_project(data: bytes):
    """(record in the plain layout of `records.to_plain`, None) or (None, "invalid_config" / "too_large")."""
    import orjson

    fields = project_fields(data)
    if fields is TOO_LARGE:
        return None, TOO_LARGE
    if fields is None:
        return None, "invalid_config"
    try:
        doc = orjson.dumps(fields).decode()  # in written order: the first matching `exports` condition wins
    except orjson.JSONEncodeError:  # nested deeper than 254 levels, or a JSONC integer beyond 64 bits
        return None, "invalid_config"
    interface = hashlib.blake2b(f"{PROJECT_LANG}\0{doc}".encode(), digest_size=12).hexdigest()
    return (PROJECT_LANG, (), (), (), doc, (), 0, 0, (), (), (), interface), None
