"""Token honesty: what a `skillbox graph query` answer costs against reading the files it points to.

    python bench/graph_tokens.py [--graph GRAPH_JSON] [--root SOURCE_DIR] [--budget TOKENS]

For each question about the repository (flask by default) it prints the answer's tokens, the tokens of the files
that contain the answer's seed nodes (what a person must open at least) and of all files the answer's lines touch
(what they would open to check every line), and both ratios. One estimator (`skillbox.graph.tokens`) counts both
sides. A ratio below 1 means the answer cost more than reading those files; no averaging over canned questions.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))
CACHE = Path.home() / ".cache" / "skillbox-graphuse"

FLASK_QUESTIONS = [
    "how does a request get dispatched to a view function",
    "where are blueprints registered on the app",
    "how is the session cookie signed and loaded",
    "what does url_for do to build a URL",
    "how are teardown_request callbacks run",
    "how does the CLI find the application",
    "how are JSON responses created",
    "where is the request context pushed",
]
DJANGO_QUESTIONS = [
    "how does the queryset filter build a where clause",
    "how are migrations autodetected",
    "how does the admin register a model",
    "how does the template engine render a variable",
    "how does the csrf middleware check a token",
]


def main() -> None:
    from skillbox.graph.code_graph import source_root
    from skillbox.graph.index import GraphIndex
    from skillbox.graph.query import DEFAULT_BUDGET, query
    from skillbox.graph.tokens import count_tokens

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph", default=str(CACHE / "bench-out" / "flask" / "graph.json"))
    parser.add_argument("--root", default=None, help="source tree (default: recorded in the graph)")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--questions", choices=["flask", "django"], default=None)
    args = parser.parse_args()

    graph_path = Path(args.graph)
    index = GraphIndex.open(graph_path)
    root = Path(args.root) if args.root else source_root(graph_path, index.meta)
    which = args.questions or ("django" if "django" in str(graph_path) else "flask")
    questions = DJANGO_QUESTIONS if which == "django" else FLASK_QUESTIONS
    file_tokens: dict[str, int] = {}

    def tokens_of(files) -> int:
        total = 0
        for f in files:
            if f not in file_tokens:
                try:
                    file_tokens[f] = count_tokens((root / f).read_text(encoding="utf-8", errors="replace"))
                except OSError:
                    file_tokens[f] = 0
            total += file_tokens[f]
        return total

    print(f"graph: {graph_path} (sources: {root}), budget {args.budget}\n")
    print("| question | answer tokens | seed files (tokens) | ratio | all answer files (tokens) | ratio |")
    print("|---|---|---|---|---|---|")
    for question in questions:
        answer = query(index, question, args.budget)
        seed_files = sorted({index.node(s).file for s in answer["seeds"] if index.node(s).file})
        seed_tokens = tokens_of(seed_files)
        all_tokens = tokens_of(answer["files"])
        used = answer["tokens"]
        print(
            f"| {question} | {used} | {len(seed_files)} ({seed_tokens}) | {seed_tokens / used:.1f}x | "
            f"{len(answer['files'])} ({all_tokens}) | {all_tokens / used:.1f}x |"
        )


if __name__ == "__main__":
    main()
