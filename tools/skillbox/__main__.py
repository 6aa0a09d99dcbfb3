"""`python -m skillbox` runs the same CLI as the `skillbox` console script, and ends the same way as the
launcher's start script (`fast_start.py`): without the interpreter's shutdown when the command says it may."""

import sys

from skillbox.cli import main

if __name__ == "__main__":
    try:
        main()
    except SystemExit as stop:
        fast_path = sys.modules.get("skillbox.cli.fast_path")
        if fast_path is not None:
            fast_path.end_process(stop)
        raise
