"""Bare JS/TS import specifiers resolved through the repository's own tsconfig.json and package.json files.

The order is the TypeScript checker's: the importer's tsconfig `paths` (nearest tsconfig.json or jsconfig.json
above it, `extends` followed), then its `baseUrl`, then packages: a `#name` through the nearest package.json's
`imports`, a package name through the package.json of the repository that declares it (`exports` with
the checker's conditions and `*` patterns, else `types`/`main`, or the subpath as a path). Where several targets are
listed (conditions, fallbacks), the first one that is a file of the repository wins, and source beats a `.d.ts`:
the graph wants the code, and both are the module the checker would use.

What comes back is EXTRACTED with the entry that resolved it as the reason, except two named guesses (INFERRED):
an `exports` target that is build output absent from the repository (`./dist/x.js`) mapped to `src/x`, and a
package that a package.json names but no workspace lists (installed, it may be another version).
The records are `js_project.py`'s; resolver memo tables keep this per build.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Callable

import orjson

EXTRACTED, INFERRED = "EXTRACTED", "INFERRED"
CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
BUILD_OUTPUT = frozenset({"dist", "build", "lib", "out", "esm", "cjs", "types"})
DECLARATION = (".d.ts", ".d.mts", ".d.cts")
# The conditions the TypeScript checker matches for an ES import (bundler resolution); `browser`, `worker`,
# `node` ... choose among builds the checker does not see, and `require` is CommonJS's.
CONDITIONS = frozenset({"types", "import", "default"})


def _join(directory: str, target: str) -> str | None:
    """A repository path, or None when `target` leaves the repository or is absolute."""
    if target.startswith("/"):
        return None
    joined = posixpath.normpath(posixpath.join(directory, target)) if directory else posixpath.normpath(target)
    if joined == ".":
        return ""
    return None if joined == ".." or joined.startswith("../") else joined


def _slashes(value: str) -> str:
    """A tsconfig path as tsc reads it: `\\` is a separator (`normalizeSlashes`), whatever the platform."""
    return value.replace("\\", "/")


def _package_target(target: str) -> bool:
    """Is this an `exports` / `imports` target Node and the checker follow to a file? It starts with `./`, and no
    later segment is empty, `.`, `..` or `node_modules` (Node's "invalid package target"), also after `*` was
    substituted: `pkg/../../x` must not walk out of the package."""
    if not target.startswith("./"):
        return False
    return not any(part in ("", ".", "..") or part.lower() == "node_modules" for part in target[2:].split("/"))


def _glob(pattern: str) -> re.Pattern:
    """A workspace glob (`packages/*`, `playground/**`) as a regex over folder paths."""
    out = []
    for part in re.split(r"(\*\*/?|\*)", pattern.strip("/").removeprefix("./")):
        if part.startswith("**"):
            out.append(".*")
        elif part == "*":
            out.append("[^/]*")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out) + "$")


def _star_match(patterns, key: str) -> tuple[str, str] | None:
    """(pattern, what `*` matched) for the pattern with the longest prefix before its `*` (Node's and
    TypeScript's rule), an exact key first."""
    if key in patterns:
        return key, ""
    best, best_prefix = None, -1
    for pattern in patterns:
        if not isinstance(pattern, str):
            continue
        prefix, star, suffix = pattern.partition("*")
        if not star:  # a legacy folder mapping "./x/": "./src/x/" matches what it starts
            if pattern.endswith("/") and key.startswith(pattern) and len(pattern) > best_prefix:
                best, best_prefix = (pattern, key[len(pattern) :]), len(pattern)
            continue
        fits = "*" not in suffix and len(key) >= len(prefix) + len(suffix)
        if fits and key.startswith(prefix) and key.endswith(suffix) and len(prefix) > best_prefix:
            best, best_prefix = (pattern, key[len(prefix) : len(key) - len(suffix)]), len(prefix)
    return best


def _targets(value, star: str, folder: bool = False) -> list[str]:
    """Every target a package.json `exports`/`imports` value lists for the checker's conditions, in their written
    order, up to a `null` the conditions reach (Node and the checker stop there: "explicitly not exported")."""
    out: list[str] = []
    _collect(value, star, folder, out)
    return out


def _collect(value, star: str, folder: bool, out: list[str]) -> bool:
    """Appends `value`'s targets to `out`; False once a matched `null` ends the lookup."""
    if value is None:
        return False
    if isinstance(value, str):
        out.append(value + star if folder else value.replace("*", star))
    elif isinstance(value, list):
        return all(_collect(item, star, folder, out) for item in value)
    elif isinstance(value, dict):
        return all(_collect(item, star, folder, out) for cond, item in value.items() if cond in CONDITIONS)
    return True


class ProjectModules:
    """The package.json / tsconfig.json facts of one build, and bare specifiers resolved through them."""

    def __init__(self, resolver, probe: Callable[[str], str | None]):
        self.probe = probe
        self.configs: dict[str, dict] = {}
        for path, rec in resolver.project_files.items():
            try:
                fields = orjson.loads(rec.doc or "{}")
            except orjson.JSONDecodeError:
                continue
            if isinstance(fields, dict):
                self.configs[path] = fields
        self.packages: dict[str, list[str]] = defaultdict(list)  # name -> package folders
        workspaces: list[re.Pattern] = []
        for path, fields in sorted(self.configs.items()):
            base = posixpath.basename(path)
            directory = posixpath.dirname(path)
            if base == "package.json" and isinstance(fields.get("name"), str):
                self.packages[fields["name"]].append(directory)
            listed = fields.get("workspaces")
            if isinstance(listed, dict):  # yarn: {"packages": [...]}
                listed = listed.get("packages")
            if base in ("package.json", "pnpm-workspace.yaml") and isinstance(listed, list):
                prefix = directory + "/" if directory else ""
                workspaces.extend(
                    _glob(prefix + glob) for glob in listed if isinstance(glob, str) and not glob.startswith("!")
                )
        self.workspaces = workspaces
        self._options: dict[str, tuple] = {}
        self._memo: dict[tuple, tuple | None] = {}
        self._near: dict[tuple, str | None] = {}

    # -- tsconfig -------------------------------------------------------------------------------------------------
    def _nearest(self, path: str, names: tuple[str, ...]) -> str | None:
        directory = posixpath.dirname(path)
        key = (directory, names)
        if key not in self._near:
            self._near[key] = self._nearest_uncached(directory, names)
        return self._near[key]

    def _nearest_uncached(self, directory: str, names: tuple[str, ...]) -> str | None:
        while True:
            for name in names:
                candidate = f"{directory}/{name}" if directory else name
                if candidate in self.configs:
                    return candidate
            if not directory:
                return None
            directory = posixpath.dirname(directory)

    def _extends(self, config: str, target: str) -> str | None:
        target = _slashes(target)
        if target.startswith((".", "/")):
            stem = _join(posixpath.dirname(config), target)
            candidates = () if stem is None else (stem, stem + ".json", f"{stem}/tsconfig.json")
        else:  # a package's config: "@acme/tsconfig/base.json"
            name, sub = _package_name(target)
            folders = self.packages.get(name or "", ())
            candidates = []
            for folder in folders[:1] if len(folders) == 1 else ():
                stem = _join(folder, sub or "tsconfig.json")
                if stem is not None:
                    candidates = [stem, stem + ".json"]
        return next((c for c in candidates if c in self.configs), None)

    def options(self, config: str, depth: int = 0) -> tuple:
        """(paths, the folder paths are relative to, baseUrl folder or None, the config defining paths) of a
        tsconfig, its `extends` chain followed (a later base overrides an earlier one, the file itself all)."""
        if config in self._options:
            return self._options[config]
        self._options[config] = (None, "", None, "")  # a cycle in `extends` ends here
        paths, paths_dir, base_url, paths_config = None, "", None, ""
        fields = self.configs.get(config, {})
        extends = fields.get("extends")
        for target in [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else ():
            parent = self._extends(config, target) if isinstance(target, str) and depth < 16 else None
            if parent is not None:
                p_paths, p_dir, p_base, p_config = self.options(parent, depth + 1)
                if p_paths is not None:
                    paths, paths_dir, paths_config = p_paths, p_dir, p_config
                if p_base is not None:
                    base_url = p_base
        options = fields.get("compilerOptions")
        if isinstance(options, dict):
            directory = posixpath.dirname(config)
            if isinstance(options.get("baseUrl"), str):
                base_url = _join(directory, _slashes(options["baseUrl"]))
            if isinstance(options.get("paths"), dict):
                paths, paths_dir, paths_config = options["paths"], directory, config
        result = (paths, paths_dir, base_url, paths_config)
        self._options[config] = result
        return result

    # -- resolution -----------------------------------------------------------------------------------------------
    def resolve(self, importer: str, module: str) -> tuple | None:
        """(target file, {}, confidence, reason) for a bare specifier the repository's configs map, or None."""
        if not self.configs:
            return None
        config = self._nearest(importer, CONFIG_NAMES)
        owner = self._nearest(importer, ("package.json",))
        key = (config, owner, module)
        if key not in self._memo:
            self._memo[key] = self._resolve(config, owner, module)
        return self._memo[key]

    def _resolve(self, config: str | None, owner: str | None, module: str) -> tuple | None:
        if config is not None:
            paths, paths_dir, base_url, paths_config = self.options(config)
            if paths:
                matched = _star_match(paths, module)
                if matched is not None:
                    pattern, star = matched
                    targets = paths[pattern] if isinstance(paths[pattern], list) else ()
                    root = base_url if base_url is not None else paths_dir
                    for target in targets:
                        stem = _join(root, _slashes(target).replace("*", star)) if isinstance(target, str) else None
                        found = self.probe(stem) if stem is not None else None
                        if found:
                            return found, {}, EXTRACTED, f"{paths_config} paths {pattern!r}"
            if base_url is not None:
                stem = _join(base_url, module)
                found = self.probe(stem) if stem is not None else None
                if found:
                    return found, {}, EXTRACTED, f"baseUrl of {config}"
        if module.startswith("#"):
            return self._package_imports(owner, module) if owner else None
        return self._package(module, owner)

    def _package_imports(self, owner: str, module: str) -> tuple | None:
        imports = self.configs[owner].get("imports")
        if not isinstance(imports, dict):
            return None
        matched = _star_match(imports, module)
        if matched is None:
            return None
        pattern, star = matched
        targets = _targets(imports[pattern], star, pattern.endswith("/"))
        entry = f"{owner} imports {pattern!r}"
        found = self._first(posixpath.dirname(owner), [t for t in targets if _package_target(t)])
        if found is not None:
            return found[0], {}, EXTRACTED, entry
        for target in targets:  # `"#log": "logger"` maps to a package, resolved as an import of it
            if not target.startswith((".", "/", "#")) and _package_name(target)[0]:
                via = self._package(target, owner)
                if via is not None:
                    return via[0], {}, via[2], f"{entry} -> {via[3]}"
        return None

    def _package(self, module: str, owner: str | None) -> tuple | None:
        name, sub = _package_name(module)
        folders = self.packages.get(name or "")
        if not folders:
            return None
        listed = [f for f in folders if any(w.match(f) for w in self.workspaces)]
        if len(folders) > 1:
            if len(listed) != 1:
                return None  # two packages of one name (fixtures, copies): not ours to pick
            folders = listed
        folder = folders[0]
        manifest = f"{folder}/package.json" if folder else "package.json"
        fields = self.configs[manifest]
        exports = fields.get("exports")
        key = f"./{sub}" if sub else "."
        build_output = False
        if exports is not None:
            if isinstance(exports, dict) and any(isinstance(k, str) and k.startswith(".") for k in exports):
                table = exports
            else:
                table = {".": exports}  # sugar: the main export only
            matched = _star_match(table, key)
            if matched is None:
                return None  # the package does not export that subpath
            pattern, star = matched
            targets = [t for t in _targets(table[pattern], star, pattern.endswith("/")) if _package_target(t)]
            entry = f"{manifest} exports {pattern!r}"
            found = self._first(folder, targets)
            if found is None:
                found, build_output = self._source_of(folder, targets), True
        elif sub:
            entry = f"{manifest} (subpath {sub})"
            found = self._first(folder, [sub])
        else:
            targets = [fields[k] for k in ("types", "typings", "main") if isinstance(fields.get(k), str)]
            entry = f"{manifest} main"
            found = self._first(folder, [*targets, "index"])
            if found is None:
                found, build_output = self._source_of(folder, targets), True
        if found is None:
            return None
        if build_output:
            return found[0], {}, INFERRED, f"{entry} -> {found[1]} is build output; its source guessed"
        if not listed and owner != manifest:  # a package importing itself by name resolves to itself
            return found[0], {}, INFERRED, f"{entry}, a package no workspace lists (installed, it may differ)"
        return found[0], {}, EXTRACTED, entry

    def _first(self, folder: str, targets: list[str]) -> tuple[str, str] | None:
        """(file, target) of the first target that is a file here, source before declarations."""
        declaration = None
        for target in targets:
            stem = _join(folder, target)
            found = self.probe(stem) if stem is not None else None
            if found:
                if not found.endswith(DECLARATION):
                    return found, target
                declaration = declaration or (found, target)
        return declaration

    def _source_of(self, folder: str, targets: list[str]) -> tuple[str, str] | None:
        """`./dist/node/index.js` (absent: build output) -> `src/node/index.*`, the usual layout."""
        for target in targets:
            parts = target.removeprefix("./").split("/")
            if len(parts) < 2 or parts[0] not in BUILD_OUTPUT:
                continue
            rest = "/".join(parts[1:])
            for suffix in DECLARATION:
                rest = rest.removesuffix(suffix)
            stem = _join(folder, f"src/{rest}")
            found = self.probe(stem) if stem is not None else None
            if found and not found.endswith(DECLARATION):
                return found, target
        return None


def _package_name(module: str) -> tuple[str | None, str]:
    """("@scope/name", "sub/path") or ("name", "sub/path"); (None, "") for a lone "@scope"."""
    parts = module.split("/")
    if module.startswith("@"):
        if len(parts) < 2 or not parts[1]:
            return None, ""
        return f"{parts[0]}/{parts[1]}", "/".join(parts[2:])
    return parts[0], "/".join(parts[1:])
