"""`python -m skillbox` runs the same CLI as the `skillbox` console script."""

from skillbox.cli import main

if __name__ == "__main__":
    main()
