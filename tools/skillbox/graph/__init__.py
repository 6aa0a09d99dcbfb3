"""Code knowledge graph: build it from source with tree-sitter, then cluster, report, query, view and serve it."""
