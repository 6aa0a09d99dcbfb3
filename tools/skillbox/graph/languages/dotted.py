"""Java, Kotlin, Scala, C#, PHP: imports name a type by its dotted (or backslashed) path.

`com.example.model.Dog` is looked for as a file ending in `com/example/model/Dog.<ext>` (the Java/PSR-4
convention), then as the folder part plus the last name; the imported name is bound to that file's definition.
Namespace imports (`using System;`, `import a.b.*`) bind nothing. PHP `require`/`include` are paths. A type
imported from outside the repository (`import java.util.Map;`) binds its name to the external package, so
`Map.of(...)` and a `Map m` receiver are known to be the library's, never guessed to be a repository method.
"""

from __future__ import annotations

import re

KEYWORDS = re.compile(r"^\s*(?:import|using|use|static|global|function|const)\s+")
STRING = re.compile(r"""['"]([^'"]+)['"]""")


def parse_import(node) -> list[tuple]:
    text = node.text.decode("utf-8", "replace")
    if node.type.startswith(("require", "include")):
        match = STRING.search(text)
        return [("path:" + match.group(1), 0, None, None, False)] if match else []
    while True:
        stripped = KEYWORDS.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped
    text = text.strip().rstrip(";").strip()
    alias = None
    match = re.match(r"^(.*?)\s+(?:as|=>)\s+(\w+)$", text)
    if match:
        text, alias = match.group(1).strip(), match.group(2)
    match = re.match(r"^(\w+)\s*=\s*(.+)$", text)  # C# `using Alias = Some.Namespace;`
    if match:
        alias, text = match.group(1), match.group(2).strip()
    if "{" in text:  # Scala `import a.b.{C, D => E}`
        head, _, rest = text.partition("{")
        out = []
        for part in rest.rstrip("}").split(","):
            part = part.strip()
            if not part:
                continue
            name, _, renamed = (p.strip() for p in part.partition("=>"))
            out.append((head.rstrip(".") + "." + name, 0, None, renamed or None, False))
        return out
    text = text.replace("\\", ".").strip(".")
    return [(text, 0, None, alias, False)] if text else []


def resolve_import(path: str, imp, resolver):
    module = imp.module
    spec = resolver.specs.get(resolver.records[path].lang)
    exts = spec.extensions if spec else ()
    if module.startswith("path:"):
        rel = module[5:].lstrip("/")
        return resolver.path_import(path, rel, "", exts), {}
    if module.endswith((".*", "._")):
        return None, {}
    segments = [s for s in module.split(".") if s]
    if not segments:
        return None, {}
    local = imp.alias or segments[-1]
    for cut in (len(segments), len(segments) - 1):
        if cut <= 0:
            break
        target = resolver.suffix_file("/".join(segments[:cut]), exts)
        if target:
            if cut < len(segments) and resolver.records[path].lang == "java":
                # `a.B.Inner` / `import static a.B.f`: a member of class B, which file a/B.java holds
                return target, {local: ("member", target, segments[-2], segments[-1])}
            return target, {local: ("symbol", target, segments[-1])}
    # Folders need not mirror packages (Kotlin, PSR-4 prefixes): the one file named after the type, if unique.
    for cut in range(len(segments) - 1, 0, -1):
        tail = "/".join(segments[cut:])
        if not tail[:1].isupper():
            continue
        target = resolver.suffix_file(tail, exts)
        if target:
            return target, {local: ("symbol", target, segments[-1])}, "INFERRED"
    return None, {}


def external_name(module: str) -> str:
    if module.startswith("path:"):
        return module[5:]
    segments = module.split(".")
    return ".".join(segments[:2]) if len(segments) > 2 else module


def external_names(imp, lang: str) -> tuple[str, ...]:
    """The names an import the repository cannot satisfy binds (to the external package): the imported type
    (`import java.util.Map` binds `Map`, `import static org.junit.Assert.assertEquals` binds `assertEquals`).
    Not C# `using A.B;`, which names a namespace, and not `a.b.*`."""
    module = imp.module
    if lang == "csharp" or module.startswith("path:") or module.endswith((".*", "._")):
        return ()
    last = module.rsplit(".", 1)[-1]
    return (last,) if last.isidentifier() else ()
