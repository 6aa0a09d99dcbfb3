"""What `query` puts first: code over docs and tests, words matched through identifiers, stems, abbreviations
and docstrings, rare words over common ones. A small real project, built by the real build, asked through the
real index."""

from __future__ import annotations

import pytest
from tests.graph.conftest import write_tree

from skillbox.graph.build import build_graph
from skillbox.graph.index import GraphIndex
from skillbox.graph.query import query
from skillbox.graph.ranking import Term, question_terms, stem

PROJECT = {
    "src/web/routing.py": (
        "class UrlMap:\n"
        '    """The table of rules incoming requests are matched against."""\n'
        "    def add_rule(self, rule):\n"
        '        """Register a rule for routing incoming requests."""\n'
        "        self.rules.append(rule)\n"
        "    def match(self, path):\n"
        "        return self.rules\n"
        "\n"
        "def dispatchRequest(url_map, path):\n"
        '    """Find the view for a request and call it."""\n'
        "    return url_map.match(path)\n"
    ),
    "src/web/config.py": (
        "class Config(dict):\n"
        "    def from_envvar(self, name):\n"
        '        """Load a configuration from an environment variable naming a file."""\n'
        "        return self.from_pyfile(name)\n"
        "    def from_pyfile(self, name):\n"
        '        """Update the values from a Python file."""\n'
        "        return name\n"
    ),
    "src/web/app.py": (
        "from web.routing import UrlMap, dispatchRequest\n"
        "from web.config import Config\n"
        "class App:\n"
        "    def __init__(self):\n"
        "        self.url_map = UrlMap()\n"
        "        self.config = Config()\n"
        "    def handle(self, path):\n"
        "        return dispatchRequest(self.url_map, path)\n"
    ),
    "tests/test_routing.py": (
        "from web.routing import UrlMap\n"
        "def test_routing_adds_rule():\n"
        '    """Routing: a rule added to the map is matched."""\n'
        "    UrlMap().add_rule('x')\n"
        "def test_routing_dispatch_request():\n"
        "    UrlMap().match('/')\n"
    ),
    "docs/routing.md": "# Routing\n\nHow a request is routed to a rule.\n\n## Adding a rule\n\nCall add_rule.\n",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = write_tree(tmp_path_factory.mktemp("rank") / "p", PROJECT)
    result = build_graph(root)
    opened = GraphIndex.open(str(result.graph_path))
    yield opened
    opened.close()


def _seeds(index, question: str) -> list[str]:
    return [index.node(n).label for n in query(index, question)["seeds"]]


def _first_kind(index, question: str, predicate) -> int:
    for i, node_id in enumerate(query(index, question)["seeds"]):
        if predicate(index.node(node_id)):
            return i
    return 10**6


def test_code_comes_before_its_docs_and_tests(index):
    question = "how is a request routed to a rule"
    seeds = query(index, question)["seeds"]
    first_code = _first_kind(index, question, lambda n: n.file and n.file.startswith("src/"))
    first_other = _first_kind(index, question, lambda n: not (n.file or "").startswith("src/"))
    assert first_code == 0 and first_other > first_code, seeds
    assert {"UrlMap.add_rule", "dispatchRequest"} <= set(_seeds(index, question))


def test_tests_and_docs_rise_when_the_question_asks_for_them(index):
    plain = _first_kind(index, "routing rule", lambda n: n.in_tests)
    asked = _first_kind(index, "tests of the routing rule", lambda n: n.in_tests)
    assert asked < plain
    doc_plain = _first_kind(index, "adding a rule", lambda n: n.kind == "heading")
    doc_asked = _first_kind(index, "docs about adding a rule", lambda n: n.kind == "heading")
    assert doc_asked <= doc_plain and doc_asked < 10**6


def test_stems_abbreviations_and_docstrings_reach_identifiers(index):
    # "configuration" finds `Config` (an abbreviation), "environment variable" the docstring of `from_envvar`
    seeds = _seeds(index, "load the configuration from an environment variable")
    assert seeds[0] == "Config.from_envvar", seeds
    # "dispatching" -> stem "dispatch" matches the camelCase word of `dispatchRequest`
    assert "dispatchRequest" in _seeds(index, "request dispatching")[:2]


def test_camel_and_snake_case_question_words_are_split():
    words = [t.word for t in question_terms("where is dispatchRequest or from_envvar used")]
    assert words[:3] == ["dispatchrequest", "dispatch", "request"]
    assert "from_envvar" in words and "envvar" in words and "where" not in words


def test_light_stemmer_and_abbreviations():
    assert stem("routed") == "rout" and stem("routing") == "rout" and stem("routes") == "rout"
    assert stem("configuration") == "configur" and stem("sent") == "send" and stem("rule") == "rule"
    assert "config" in Term("configuration").abbreviations and "env" in Term("environment").abbreviations


def test_a_rare_word_outweighs_a_common_one(index):
    # "request" appears in many nodes' text, "envvar" in one: the one naming the rare word leads
    assert _seeds(index, "request envvar")[0] == "Config.from_envvar"
