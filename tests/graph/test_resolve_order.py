"""graph.json may not depend on the order extraction handed the records over: in-process extraction (--jobs 1)
gives path order, the pool its batches' order (biggest first). On Django the two built different graph.json
(9 INFERRED "passed to" edges of tests/schema/tests.py): the call-site table was filled in the records' order, so
which site answered first, and which memo's cycle guard answered for it, followed the extraction."""

from __future__ import annotations

from skillbox.graph.build import DEFAULT_MAX_BYTES, extract, make_plan
from skillbox.graph.resolve import Resolver

FILES = {
    "lib.py": "def run(cb):\n    return cb()\n",
    "a.py": "from lib import run\n\n\ndef one():\n    return 1\n\n\nrun(one)\n",
    "b.py": "from lib import run\n\n\ndef two():\n    return 2\n\n\nrun(two)\n",
}


def test_the_call_sites_table_is_in_path_order_whatever_the_records_order(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    for name, text in FILES.items():
        (tree / name).write_text(text)
    seconds: dict = {}
    plan = make_plan(tree, tmp_path / "out", True, DEFAULT_MAX_BYTES, seconds, lambda *a: None)
    records = extract(plan, 1, seconds, lambda *a: None).records
    tables = []
    for order in (sorted(records), sorted(records, reverse=True)):
        resolver = Resolver({path: records[path] for path in order}, frozenset())
        resolver.prepare()
        tables.append(dict(resolver._call_sites()))
    assert [site[0] for site in tables[0]["run"]] == ["a.py", "b.py"]
    assert tables[0] == tables[1]
