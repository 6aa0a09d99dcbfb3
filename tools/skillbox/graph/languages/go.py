"""Go: an import path names a package, i.e. a folder; its exported names are `alias.Name`.

A path is matched to the repository folder it ends with (`github.com/org/repo/pkg/util` -> `pkg/util`), so
module prefixes from go.mod need no parsing; everything else is an external package.
"""

from __future__ import annotations

import posixpath


def resolve_import(path: str, imp, resolver):
    module = imp.module.strip().strip('"`')
    best = None
    for directory in resolver.dirs_with("go"):
        matches = directory and (module == directory or module.endswith("/" + directory))
        if matches and (best is None or len(directory) > len(best)):
            best = directory
    local = imp.alias or posixpath.basename(module)
    if best is None:
        return None, {}
    if local in ("_", "."):
        return ("dir", best), {}
    return ("dir", best), {local: ("dir", best)}


def external_name(module: str) -> str:
    return module.strip().strip('"`')
