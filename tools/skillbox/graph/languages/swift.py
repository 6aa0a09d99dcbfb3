"""Swift: `import Module` names a module, i.e. a folder of the repository (a SwiftPM target such as
`Sources/Module`, or any folder of that name holding Swift files); everything else is an outside module.

Within a module every file sees the others' declarations without an import, so an imported in-repo module binds
its name to the folder: `Module.Type` resolves there.
"""

from __future__ import annotations

import posixpath


def resolve_import(path: str, imp, resolver):
    module = imp.module.strip().split(".")[0]
    if not module:
        return None, {}
    best = None
    for directory in resolver.dirs_with("swift"):
        if posixpath.basename(directory) == module and (best is None or (len(directory), directory) < best):
            best = (len(directory), directory)
    if best is None:
        return None, {}
    return ("dir", best[1]), {module: ("dir", best[1])}


def external_name(module: str) -> str:
    return module.strip().split(".")[0]
