"""graph.html: one self-contained, offline viewer for graphs of any size (see `render.py`)."""
