"""`python -m skillbox` runs the same CLI as the `skillbox` console script, and ends the same way as the
launcher's start script (`fast_start.py`): without the interpreter's shutdown when the command says it may."""

from skillbox.cli import run

if __name__ == "__main__":
    run()
