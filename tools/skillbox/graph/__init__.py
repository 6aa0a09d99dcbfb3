"""The code knowledge graph: tree-sitter records per file, resolved into a networkx MultiDiGraph.

Entry point for other code: `skillbox.graph.build.build_graph(root, out_dir, force) -> BuildResult`.
"""
