"""How `bin/skillbox` starts the CLI in its venv: `python -S -P .../skillbox/fast_start.py VENV SITE ARGS...`.

Every skillbox command is a short process (hooks start one per tool call, an agent runs `skillbox lint` after
each edit), so interpreter start-up is a large share of it. `-m skillbox` costs `runpy` (and `importlib.util`,
`contextlib` behind it); the `site` module costs reading pyvenv.cfg, the .pth files and a failed
`sitecustomize` search. Together about 9 M of a lint process's ~135 M instructions. This script is what both
would have done for a launcher-built venv: `sys.prefix`/`sys.exec_prefix` set to the venv (as `site` does for
a venv) and its site-packages (SITE, one folder; a colon in it is part of the name) appended to `sys.path`.

The launcher takes this path only when the venv's site-packages holds the package itself and no .pth file
other than setuptools' distutils shim (which only matters to code importing distutils); an editable install
(its .pth puts the source tree on the path) or any other .pth goes through `python -P -m skillbox` with `site`
as before. Nothing is added to the environment, so child processes start as usual; `-S` is not passed on
either (only `multiprocessing`'s spawn start method copies interpreter flags, and skillbox forks).

A command whose click-free twin has printed everything and holds nothing to close says so
(`cli/fast_path.py::nothing_left_to_finalize`); the process then ends with `os._exit` after flushing stdout and
stderr, skipping the interpreter's shutdown (~3 M instructions of a per-project lint). Not when an atexit
handler is registered, nor for any other command or exit value.
"""

import sys

sys.prefix = sys.exec_prefix = sys.argv[1]
sys.path.append(sys.argv[2])
del sys.argv[1:3]

from skillbox.cli import run  # noqa: E402

run()
