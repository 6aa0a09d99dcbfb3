"""Python: import statements (relative levels, aliases, star imports), module names, and what imports bind.

Queries can find an import statement but not say what `from ..a import b as c` binds; this hook does, maps
files to the dotted module names Python would import them by, and binds imported names for the resolver
(`bind_import`): `import a.b.c` binds `a`, a package's submodules are attributes of it, a module that is not in
the repository (and whose top-level package is not either) is an external node.
"""

from __future__ import annotations

import posixpath
import re
import sys
from collections import defaultdict

STDLIB = frozenset(sys.stdlib_module_names)

STUB_SUFFIXES = (".py", ".pyi")


def parse_import(node) -> list[tuple]:
    """`import a.b as c, d` / `from ..m import x as y, *` -> (module, level, names, alias, reexport) tuples."""
    if node.type == "import_statement":
        out = []
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                name = child.child_by_field_name("name")
                alias = child.child_by_field_name("alias")
                out.append((_text(name), 0, None, _text(alias) if alias else None, False))
            else:
                out.append((_text(child), 0, None, None, False))
        return out
    module_node = node.child_by_field_name("module_name")
    if module_node is None:
        return []
    level = 0
    module = ""
    if module_node.type == "relative_import":
        for child in module_node.children:
            if child.type == "import_prefix":
                level = len(_text(child).strip())
            elif child.type == "dotted_name":
                module = _text(child)
    else:
        module = _text(module_node)
    if any(child.type == "wildcard_import" for child in node.children):
        return [(module, level, (("*", None),), None, False)]
    names = []
    for child in node.children_by_field_name("name"):
        if child.type == "aliased_import":
            name = child.child_by_field_name("name")
            alias = child.child_by_field_name("alias")
            names.append((_text(name), _text(alias) if alias else None))
        else:
            names.append((_text(child), None))
    return [(module, level, tuple(names), None, False)]


_NAMES = frozenset({"identifier", "attribute"})


def unpack_pairs(left, right) -> list[tuple]:
    """`@unpack` (a `pattern_list = expression_list` assignment) -> [(relation key, name node, receiver node)]: what
    the anchored patterns `(pattern_list . (_) . (identifier) @name)` / `(expression_list . (_) . X @receiver)` (one per
    position) matched. Positions 0-2: `reference.alias` for a name or attribute value, `reference.assign` for a call
    (its callee the receiver); nested at position 1, `a, (b, c) = f, (g, h)`, positions 0-1 of the inner pair
    (`reference.alias`). A `(_)` before a position is any named node (comments too) but an ERROR."""
    out = []
    targets = left.named_children
    values = right.named_children
    for index in range(min(3, len(targets), len(values))):
        if index and (targets[index - 1].is_error or values[index - 1].is_error):
            break
        target, value = targets[index], values[index]
        if target.type != "identifier":
            continue
        kind = value.type
        if kind in _NAMES:
            out.append(("reference.alias", target, value))
        elif kind == "call":
            callee = value.child_by_field_name("function")
            if callee is not None and callee.type in _NAMES:
                out.append(("reference.assign", target, callee))
    if (
        len(targets) > 1
        and len(values) > 1
        and targets[1].type == "tuple_pattern"
        and values[1].type == "tuple"
        and not targets[0].is_error
        and not values[0].is_error
    ):
        targets = targets[1].named_children
        values = values[1].named_children
        for index in range(min(2, len(targets), len(values))):
            if index and (targets[0].is_error or values[0].is_error):
                break
            if targets[index].type == "identifier" and values[index].type in _NAMES:
                out.append(("reference.alias", targets[index], values[index]))
    return out


def _text(node) -> str:
    return "".join(node.text.decode("utf-8", "replace").split())


def module_names(paths: list[str]) -> dict[str, str]:
    """path -> dotted module name, with the package root found by walking up through `__init__.py` dirs.

    `src/flask/app.py` is `flask.app` (src/ has no `__init__.py`); `tests/test_x.py` is `test_x`.
    """
    init_dirs = {posixpath.dirname(p) for p in paths if posixpath.basename(p) in ("__init__.py", "__init__.pyi")}
    out = {}
    for path in paths:
        directory, base = posixpath.split(path)
        stem = base.rsplit(".", 1)[0]
        parts = [] if stem == "__init__" else [stem]
        while directory and directory in init_dirs:
            directory, package = posixpath.split(directory)
            parts.append(package)
        if parts:
            out[path] = ".".join(reversed(parts))
    return out


def module_file(base_dir: str, dotted: str, files) -> str | None:
    """The file for module `dotted` under `base_dir`: `x/y.py`, `x/y/__init__.py` (or `.pyi`)."""
    rel = dotted.replace(".", "/") if dotted else ""
    stem = posixpath.join(base_dir, rel) if rel else base_dir
    if rel:
        for suffix in STUB_SUFFIXES:
            if stem + suffix in files:
                return stem + suffix
    for suffix in STUB_SUFFIXES:
        candidate = posixpath.join(stem, "__init__" + suffix) if stem else "__init__" + suffix
        if candidate in files:
            return candidate
    return None


def modules_by_name(paths: list[str]) -> dict[str, list[str]]:
    """dotted module name -> the files that claim it (several top-level test folders can hold `conftest`)."""
    out: dict[str, list[str]] = defaultdict(list)
    for path, module in module_names(paths).items():
        out[module].append(path)
    return out


def find_module(resolver, path: str, module: str, level: int) -> str | None:
    """The file `import module` (with `level` leading dots) from `path` reaches, or None."""
    if level:
        base = posixpath.dirname(path)
        for _ in range(level - 1):
            if not base:
                return None
            base = posixpath.dirname(base)
        return module_file(base, module, resolver.files)
    candidates = resolver.dotted_modules.get(module)
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0]
    # Several files claim the name (top-level test modules in different folders): the nearest one wins.
    return max(candidates, key=lambda c: (len(posixpath.commonprefix([c, path])), c))


def submodule(resolver, package_file: str, name: str) -> str | None:
    """`pkg.name` where `pkg` is `pkg/__init__.py`: the module `pkg/name.py` (or package), if there is one."""
    directory, base = posixpath.split(package_file)
    if not base.startswith("__init__."):
        return None
    return module_file(directory, name, resolver.files)


def _external(resolver, module: str) -> str:
    top = module.split(".")[0]
    return resolver.external("python", top, stdlib=top in STDLIB)


def bind_import(resolver, path: str, imp, scope_bindings: dict, edge) -> None:
    """Draw the import edges of one statement and bind the names it introduces in its scope."""
    if imp.names is None:  # import a.b.c [as x]
        target = find_module(resolver, path, imp.module, 0)
        if target is None:
            if imp.module.split(".")[0] in resolver.dotted_modules:
                resolver.stats["unresolved_imports"] += 1
                return
            ext = _external(resolver, imp.module)
            edge(ext, imp.line)
            scope_bindings[imp.alias or imp.module.split(".")[0]] = ("external", ext)
            return
        edge(target, imp.line)
        if imp.alias:
            scope_bindings[imp.alias] = ("module", target)
        else:
            head = imp.module.split(".")[0]
            head_file = find_module(resolver, path, head, 0)
            if head_file:
                scope_bindings[head] = ("module", head_file)
        return
    target = find_module(resolver, path, imp.module, imp.level)
    if target is None:
        if imp.level or (imp.module.split(".")[0] in resolver.dotted_modules):
            resolver.stats["unresolved_imports"] += 1
            return
        ext = _external(resolver, imp.module)
        edge(ext, imp.line)
        for name, alias in imp.names:
            if name != "*":
                scope_bindings[alias or name] = ("external", ext)
        return
    edge(target, imp.line)
    for name, alias in imp.names:
        if name == "*":
            resolver.stars[path].append(target)
            continue
        found = submodule(resolver, target, name)
        if found:
            edge(found, imp.line)
        scope_bindings[alias or name] = ("symbol", target, name)


# ---- parameter flow, pruned at extraction ----------------------------------------------------------------------
# The query records each def's parameter list (one ref, its text) and every name passed as an argument; nearly
# all of them are values no call edge depends on (`request`, `value`). Only the parameters a body calls (`a()`,
# `a[k]()`, `return a` of a decorator, `self.c = c`) can make an edge, and only arguments that name something the
# file defines or imports can give one a value, so the rest are dropped here, before the record is cached.

ARG_RELATIONS = frozenset({"arg0", "arg1", "argkw"})
# Callees whose arguments are never recorded: builtins that never call what they are given (`len(x)`,
# `isinstance(x, C)`) and unittest's assertions, half the arguments of a large repository.
SILENT_CALLEES = re.compile(
    r"^(len|isinstance|issubclass|str|repr|int|float|bool|bytes|list|tuple|set|frozenset|dict|getattr|setattr|"
    r"hasattr|delattr|type|print|iter|next|super|id|hash|callable|vars|format|any|all|sum|enumerate|zip|reversed|"
    r"abs|round|open|range|self[.]assert[A-Za-z]*)$"
)
_SILENT_BYTES = re.compile(SILENT_CALLEES.pattern.encode())
PASSED = ("identifier", "attribute")  # the argument forms recorded: a name or a dotted name
# The relation names, sliced out for each fact as the query's capture names were (`key[10:]`): a fresh string
# per ref, not one interned constant, so the interface digest (marshal) of a record is what it was.
_RELATION_TEXT = "arg0arg1argkw"


def call_arguments(language):
    """The reader of calls' argument facts for extraction (`extract._Engine.call_args`): the name or attribute
    passed first (`arg0`), second (`arg1`) and each keyword argument whose value is one (`argkw`, text `k=v`),
    for [(call node, callee end byte, dotted callee, index of the call's ref)] -> [(facts, dotted, index)].

    Read off each call node rather than matched by three query patterns on every call: in callgrind on
    django/db the patterns cost 235 M instructions of the query's 1,176 M, this walk ~95 M. (Reading only the
    calls whose facts `prune_refs` can keep, by the words of their argument text, saved nothing more.)"""
    argument_list = language.id_for_node_kind("argument_list", True)
    keyword_argument = language.id_for_node_kind("keyword_argument", True)
    passed = frozenset(language.id_for_node_kind(kind, True) for kind in PASSED)
    comment = language.id_for_node_kind("comment", True)
    silent = _SILENT_BYTES.match

    def read(data: bytes, pending: list) -> list[tuple]:
        found = []
        for call, callee_end, dotted, index in pending:
            start = call.start_byte
            if silent(data[start:callee_end]):
                continue
            args = call.child(call.child_count - 1)
            if args is None or args.kind_id != argument_list:
                continue
            facts = []
            position = -1
            for arg in args.named_children:
                kind = arg.kind_id
                if kind == comment:  # `f(  # why\n  x)`: no position (the query patterns counted it as one)
                    continue
                position += 1
                if kind in passed:
                    if position > 1:
                        continue
                    relation = _RELATION_TEXT[4:8] if position else _RELATION_TEXT[0:4]
                elif kind == keyword_argument:
                    value = arg.child_by_field_name("value")
                    if value is None or value.kind_id not in passed:
                        continue
                    relation = _RELATION_TEXT[8:]
                else:
                    continue
                # The callee decoded once per fact: the interface digest marshals these refs, and marshal
                # writes an object shared by several refs differently from equal ones (the query gave each its own).
                callee = data[start:callee_end].decode("utf-8", "replace")
                text = data[arg.start_byte : arg.end_byte].decode("utf-8", "replace")
                facts.append((arg.start_byte, relation, text, callee, arg.start_point[0] + 1))
            if facts:
                found.append((facts, dotted, index))
        return found

    return read


# Builtins that call a function they are given: "*" any positional argument, else the keyword that is called.
CALLING_BUILTINS = {"map": "*", "filter": "*", "sorted": "key", "min": "key", "max": "key"}
CALL_LIKE = frozenset({"call", "callitem", "callresult"}) | ARG_RELATIONS
_PARAM = re.compile(r"^(\*{0,2})\s*([A-Za-z_]\w*)?")
_DEFAULT = re.compile(r"(?<![=<>!])=\s*([A-Za-z_][\w.]*)\s*$")
_KEYWORD = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*([A-Za-z_][\w.]*)\s*$")
_OPEN, _CLOSE = "([{", ")]}"


def prune_refs(defs: list, refs: list, imports: list) -> list:
    """The file's refs with calls in a decorator moved to the scope that evaluates them, each parameter list
    turned into the parameters its body calls (`param` refs: name, position[=default]), and arguments kept only
    when they name a definition, an imported name, an alias, an instance or an attribute of the file."""
    direct: dict[int, set[str]] = {}  # scope -> names called (or indexed, returned, stored) right there
    def_names = {d[2] for d in defs}
    known = set(def_names) | {"self", "cls"}  # `Capture(self)`: the instance passed on
    special: list[int] = []
    params_text: dict[int, str] = {}
    moved = False
    for index, (relation, name, receiver, scope, line) in enumerate(refs):
        if relation == "call":  # most refs: kept lean
            if scope >= 0:
                if line < defs[scope][3]:
                    moved = True
                if receiver is None:
                    names = direct.get(scope)
                    if names is None:
                        direct[scope] = {name}
                    else:
                        names.add(name)
        elif relation in CALL_LIKE:
            if scope >= 0 and line < defs[scope][3]:
                moved = True
            if relation == "callitem":
                _use(direct, scope, receiver)
            elif relation != "callresult":
                special.append(index)
                if relation != "argkw" and "." not in receiver and _is_param(defs, params_text, scope, receiver):
                    _use(direct, scope, name)  # `cb(x)` with cb a parameter: x flows on into cb
        elif relation == "params":
            special.append(index)
            params_text[scope] = name
        elif relation in ("alias", "attralias"):
            _use(direct, scope, receiver)
            known.add(name)
        elif relation == "returns":
            _use(direct, scope, name)
        elif relation == "attr" or (relation == "assign" and receiver.rsplit(".", 1)[-1][:1].isupper()):
            known.add(name)  # `self.c = ...`, `x = C()`: an attribute or an instance worth passing
    if not special and not moved:
        return refs
    for imp in imports:
        if imp[2] is not None:  # names imported from a module, not modules (`models.CASCADE` is no callable)
            known.update(alias or name for name, alias in imp[2])
    used: dict[int, set[str]] = {}  # scope -> names used there or in a scope nested in it (a closure's calls)
    if params_text:
        for scope, names in direct.items():
            while scope >= 0:
                used.setdefault(scope, set()).update(names)
                scope = defs[scope][5]
    kept_params: set[tuple[int, str]] = set()
    replace: dict[int, list] = {}
    for index in special:
        relation, name, receiver, scope, line = refs[index]
        if relation == "params":
            names = used.get(scope)
            replace[index] = _params(name, names, scope, line, kept_params) if names else []
    for index in special:
        relation, name, receiver, scope, line = refs[index]
        if relation == "params":
            continue
        value = name
        if relation == "argkw":
            match = _KEYWORD.match(name)
            value = match.group(2) if match else ""
        parts = value.split(".")
        last = parts[-1]
        # `f`, `obj.method`, `self.method`: the last part names something of this file; `cb(x)` in a def whose
        # parameters both are: what x is given flows on.
        keep = last in known and (len(parts) == 1 or last in def_names)
        if not keep and len(parts) == 1 and value:
            current = scope
            while current >= 0 and not keep:
                keep = (current, value) in kept_params
                current = defs[current][5]
        if not keep:
            replace[index] = []
    if moved:
        for index, ref in enumerate(refs):
            relation, name, receiver, scope, line = ref
            if relation in CALL_LIKE and scope >= 0 and line < defs[scope][3] and index not in replace:
                while scope >= 0 and line < defs[scope][3]:
                    scope = defs[scope][5]
                replace[index] = [(relation, name, receiver, scope, line)]
    out = []
    start = 0
    for index in sorted(replace):
        out.extend(refs[start:index])
        out.extend(replace[index])
        start = index + 1
    out.extend(refs[start:])
    return out


_WORDS = re.compile(r"[A-Za-z_]\w*")


def _is_param(defs: list, params_text: dict, scope: int, name: str) -> bool:
    """Whether `name` is a word of the parameter list of `scope` or a def around it (a cheap over-estimate)."""
    while scope >= 0:
        text = params_text.get(scope)
        if text is not None and name in text and name in _WORDS.findall(text):
            return True
        scope = defs[scope][5]
    return False


def _use(direct: dict, scope: int, name: str | None) -> None:
    if name and scope >= 0:
        direct.setdefault(scope, set()).add(name)


def _params(text: str, names: set, scope: int, line: int, kept: set) -> list[tuple]:
    """`param` refs for the parameters in `names` of a parameter list `(a, b=f, *args, c)`: name, position
    (`0`, `1`..., `kw` after a `*`, `*`, `**`) and, for a default that is a name, `=default`."""
    if not any(name in text for name in names):
        return []
    out = []
    position = 0
    keyword_only = False
    for part in _split_params(text):
        if part == "/":
            continue
        match = _PARAM.match(part)
        stars, param = match.group(1), match.group(2)
        if stars or part == "*":
            keyword_only = True
        slot = "**" if stars == "**" else "*" if stars else "kw" if keyword_only else str(position)
        if not stars and not keyword_only:
            position += 1
        if param is None or param not in names:
            continue
        default = _DEFAULT.search(part) if not stars else None
        if default:
            slot = f"{slot}={default.group(1)}"
        kept.add((scope, param))
        out.append(("param", param, slot, scope, line))
    return out


def _split_params(text: str) -> list[str]:
    """A parameter list's text split at its top-level commas (brackets and string literals respected)."""
    body = text.strip()
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1]
    parts = []
    depth = 0
    quote = ""
    start = 0
    for index, char in enumerate(body):
        if quote:
            if char == quote and body[index - 1] != "\\":
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(body[start:index].strip())
            start = index + 1
    parts.append(body[start:].strip())
    return [part for part in parts if part]
