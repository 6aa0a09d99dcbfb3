"""skillbox: the Python side of the skillbox Claude Code plugin.

The version here must equal `.claude-plugin/plugin.json`'s version; a test keeps them in step, and the
launcher (`bin/skillbox`) reinstalls its managed virtualenv when the plugin version changes.
"""

__version__ = "0.1.0"
