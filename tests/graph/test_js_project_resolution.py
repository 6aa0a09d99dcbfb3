"""Monorepo self-imports resolved through the repository's own tsconfig.json and package.json (EXTRACTED, with the
entry that resolved them as the reason); the folder-name and `@/` guesses stay only as INFERRED fallbacks.
Real tree-sitter parsing of small projects laid out the way pnpm/yarn workspaces are."""

from __future__ import annotations

import json

from skillbox.graph.build import build_graph
from tests.graph.conftest import read_graph

TSCONFIG_BASE = """{
  // JSONC: comments and trailing commas, as tsc accepts them
  "compilerOptions": {
    "baseUrl": ".",
    "paths": {
      "@lib/*": ["libs/shared/src/*"],
      "@app": ["apps/web/src/app.ts"], /* an exact alias */
    },
  },
}
"""


def workspace(project, extra=None):
    files = {
        "package.json": json.dumps({"name": "acme-root", "private": True, "workspaces": ["packages/*"]}),
        "tsconfig.base.json": TSCONFIG_BASE,
        "apps/web/tsconfig.json": '{ "extends": "../../tsconfig.base.json", }\n',
        "libs/shared/src/format.ts": "export function format() { return 1; }\n",
        "apps/web/src/app.ts": "export function app() { return 1; }\n",
        "packages/core/package.json": json.dumps(
            {
                "name": "@acme/core",
                "exports": {
                    ".": {"types": "./types/index.d.ts", "import": "./lib/index.js", "default": "./lib/index.js"},
                    "./feature/*": "./lib/features/*.js",
                    "./package.json": "./package.json",
                },
                "imports": {"#internal/*": "./lib/internal/*.js"},
            }
        ),
        "packages/core/types/index.d.ts": "export declare function boot(): number;\n",
        "packages/core/lib/index.js": (
            "import { secret } from '#internal/secret';\nexport function boot() { return secret(); }\n"
        ),
        "packages/core/lib/features/flags.js": "export function flag() { return 1; }\n",
        "packages/core/lib/internal/secret.js": "export function secret() { return 1; }\n",
        "packages/cli/package.json": json.dumps({"name": "@acme/cli", "exports": {".": "./dist/index.js"}}),
        "packages/cli/src/index.ts": "export function run() { return 1; }\n",
        "apps/web/main.ts": (
            "import { format } from '@lib/format';\n"
            "import { app } from '@app';\n"
            "import { boot } from '@acme/core';\n"
            "import { flag } from '@acme/core/feature/flags';\n"
            "import { run } from '@acme/cli';\n"
            "import React from 'react';\n"
            "export function start() { format(); app(); boot(); flag(); run(); }\n"
        ),
    }
    files.update(extra or {})
    return project(files)


def imports_of(g, source):
    return {e["target"]: e for e in g.edges("imports", source=source)}


def test_tsconfig_paths_through_extends_and_jsonc_resolve_as_extracted(project):
    g = read_graph(build_graph(workspace(project), jobs=1).out_dir)
    imports = imports_of(g, "apps/web/main.ts")
    lib = imports["libs/shared/src/format.ts"]
    assert lib["confidence"] == "EXTRACTED"
    assert lib["reason"] == "tsconfig.base.json paths '@lib/*'"
    assert imports["apps/web/src/app.ts"]["reason"] == "tsconfig.base.json paths '@app'"
    assert g.edge("apps/web/main.ts::start", "libs/shared/src/format.ts::format", "calls")["confidence"] == "EXTRACTED"
    assert "external:typescript:react" in imports


def test_workspace_package_exports_conditions_patterns_and_imports(project):
    g = read_graph(build_graph(workspace(project), jobs=1).out_dir)
    imports = imports_of(g, "apps/web/main.ts")
    # The `types` condition comes first, but the source file beats the declaration.
    core = imports["packages/core/lib/index.js"]
    assert core["confidence"] == "EXTRACTED" and core["reason"] == "packages/core/package.json exports '.'"
    assert "packages/core/types/index.d.ts" not in imports
    flags = imports["packages/core/lib/features/flags.js"]
    assert flags["reason"] == "packages/core/package.json exports './feature/*'"
    assert g.edge("apps/web/main.ts::start", "packages/core/lib/features/flags.js::flag", "calls")
    # `#internal/*` of the importer's own package.json.
    secret = imports_of(g, "packages/core/lib/index.js")["packages/core/lib/internal/secret.js"]
    assert (
        secret["confidence"] == "EXTRACTED" and secret["reason"] == "packages/core/package.json imports '#internal/*'"
    )
    # An export to build output that is not in the repository: its source, as a named guess.
    cli = imports["packages/cli/src/index.ts"]
    assert cli["confidence"] == "INFERRED" and "./dist/index.js is build output" in cli["reason"]


def test_package_outside_every_workspace_and_folder_guess_stay_inferred(project):
    root = project(
        {
            "package.json": json.dumps({"name": "root", "workspaces": ["packages/*"]}),
            "tools/gen/package.json": json.dumps({"name": "gen", "main": "index.js"}),
            "tools/gen/index.js": "export function gen() { return 1; }\n",
            "packages/util/src/index.ts": "export function u() { return 1; }\n",
            "main.ts": (
                "import { gen } from 'gen';\nimport { u } from '@acme/util';\nexport function m() { gen(); u(); }\n"
            ),
        }
    )
    imports = imports_of(read_graph(build_graph(root, jobs=1).out_dir), "main.ts")
    gen = imports["tools/gen/index.js"]
    assert gen["confidence"] == "INFERRED" and "no workspace lists" in gen["reason"]
    util = imports["packages/util/src/index.ts"]  # no package.json names @acme/util: the old folder guess
    assert util["confidence"] == "INFERRED" and "package folder util/" in util["reason"]


def test_config_files_make_no_nodes_and_an_edit_to_one_re_resolves(project):
    root = workspace(project)
    first = build_graph(root, jobs=1)
    g = read_graph(first.out_dir)
    assert not [node_id for node_id in g.nodes if node_id.endswith((".json", ".yaml"))]
    assert first.summary["languages"]["jsproject"] == 5
    # The alias moves: the importer's edge follows, and the incremental graph equals a cold one.
    (root / "tsconfig.base.json").write_text(TSCONFIG_BASE.replace("libs/shared/src/*", "apps/web/src/*"))
    (root / "apps/web/src/format.ts").write_text("export function format() { return 2; }\n")
    build_graph(root, jobs=1)
    incremental = (first.out_dir / "graph.json").read_bytes()
    imports = imports_of(read_graph(first.out_dir), "apps/web/main.ts")
    assert "apps/web/src/format.ts" in imports and "libs/shared/src/format.ts" not in imports
    build_graph(root, force=True, jobs=1)
    assert (first.out_dir / "graph.json").read_bytes() == incremental


def test_edit_to_a_config_alone_re_resolves_every_importer(project):
    root = workspace(project)
    first = build_graph(root, jobs=1)
    (root / "packages/core/package.json").write_text(
        json.dumps({"name": "@acme/core", "exports": {".": "./lib/features/flags.js"}})
    )
    second = build_graph(root, jobs=1)
    assert second.summary["resolved_again"] == second.summary["files"]
    imports = imports_of(read_graph(first.out_dir), "apps/web/main.ts")
    assert "packages/core/lib/features/flags.js" in imports and "packages/core/lib/index.js" not in imports


def test_unparsable_config_is_skipped_and_reported_and_an_empty_one_is_not(project):
    root = workspace(project, {"packages/broken/package.json": "{ not json", "packages/empty/pnpm-workspace.yaml": ""})
    summary = build_graph(root, jobs=1).summary
    assert summary["skipped"]["invalid_config"] == 1
    assert summary["skipped_files"]["invalid_config"] == ["packages/broken/package.json"]


def test_odd_configs_never_break_the_build(project):
    root = project(
        {
            "package.json": json.dumps({"name": "root", "workspaces": {"packages": ["libs/*"]}}),
            "pnpm-workspace.yaml": "onlyBuiltDependencies:\n  - esbuild\n",
            # a BOM, an extends cycle, an extends to a package that is not in the repository, odd `paths` values
            "tsconfig.json": '\ufeff{ "extends": ["./tsconfig.b.json", "@tsconfig/node20/tsconfig.json"],\n'
            ' "compilerOptions": { "paths": { "@x/*": "not-a-list", "@y/*": [42, "libs/y/*"] } } }',
            "tsconfig.b.json": '{ "extends": "./tsconfig.json" }',
            "libs/a/package.json": json.dumps({"name": "a", "exports": None, "main": 7}),
            "libs/b/package.json": json.dumps({"name": "b", "exports": ["./nope.js", {"import": "./index.js"}]}),
            "libs/b/index.js": "export function bee() { return 1; }\n",
            "libs/y/thing.ts": "export function thing() { return 1; }\n",
            "libs/dup1/package.json": json.dumps({"name": "dup"}),
            "libs/dup2/package.json": json.dumps({"name": "dup"}),
            "libs/dup1/index.js": "export function d() { return 1; }\n",
            "main.ts": (
                "import { x } from '@x/x';\nimport { thing } from '@y/thing';\nimport a from 'a';\n"
                "import { bee } from 'b';\nimport { d } from 'dup';\nexport function m() { thing(); bee(); }\n"
            ),
        }
    )
    result = build_graph(root, jobs=1)
    imports = imports_of(read_graph(result.out_dir), "main.ts")
    assert imports["libs/y/thing.ts"]["reason"] == "tsconfig.json paths '@y/*'"
    assert imports["libs/b/index.js"]["confidence"] == "EXTRACTED"  # an array of targets: the first that exists
    assert "external:typescript:dup" in imports  # two packages of one name: not ours to pick
    assert "external:typescript:a" in imports and "external:typescript:@x/x" in imports
    assert "invalid_config" not in result.summary["skipped"]


def test_hostile_configs_are_skipped_with_a_reason_never_a_traceback(project):
    """Nesting deeper than a parser's stack, a JSONC integer orjson cannot write back, a huge JSONC file and a
    YAML alias bomb in pnpm-workspace.yaml: each one skipped (or read for its globs only), the build goes on."""
    deep_exports: object = "./index.js"
    for _ in range(300):  # valid JSON that orjson reads (limit 1024) but cannot write back (limit 254)
        deep_exports = {"import": deep_exports}
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdef", "bcdefg", strict=True)
    )
    root = project(
        {
            "package.json": json.dumps({"name": "root"}),
            "pnpm-workspace.yaml": bomb + "packages: [*g, 'libs/*']\n",
            "libs/deep/package.json": '{"name": "deep", "a": ' + "[" * 3000 + "]" * 3000 + "}",
            "libs/deeper/package.json": json.dumps({"name": "deeper", "exports": deep_exports}),
            "libs/big/tsconfig.json": '{ // JSONC\n "compilerOptions": { "baseUrl": 123456789012345678901234567890 } }',
            "libs/huge/tsconfig.json": "{ // JSONC\n" + " " * 70_000 + '"compilerOptions": {} }',
            "libs/ok/package.json": json.dumps({"name": "ok", "main": "index.js"}),
            "libs/ok/index.js": "export function ok() { return 1; }\n",
            "main.ts": "import { ok } from 'ok';\nexport function m() { ok(); }\n",
        }
    )
    result = build_graph(root, jobs=1)
    skipped = result.summary["skipped_files"]
    assert sorted(skipped["invalid_config"]) == ["libs/big/tsconfig.json", "libs/deep/package.json",
                                                 "libs/deeper/package.json"]  # fmt: skip
    assert skipped["too_large"] == ["libs/huge/tsconfig.json"]
    ok = imports_of(read_graph(result.out_dir), "main.ts")["libs/ok/index.js"]
    assert ok["confidence"] == "EXTRACTED"  # listed by the bombed YAML's one glob, which was still read


def test_package_targets_follow_node_rules_not_a_nearby_file(project):
    """An `imports` target without `./` names a package (Node and the checker resolve it as one, here the
    workspace package `logger`), never the file of that name beside the package.json; an `exports` target
    without `./` is invalid and maps nowhere, and so does a condition mapped to `null`; conditions count in the
    order they are written."""
    root = project(
        {
            "package.json": json.dumps({"name": "root", "workspaces": ["packages/*"]}),
            "packages/app/package.json": json.dumps({"name": "app", "imports": {"#log": "logger"}}),
            "packages/app/logger.js": "export function local() { return 1; }\n",
            "packages/app/main.js": "import { log } from '#log';\nexport function m() { log(); }\n",
            "packages/logger/package.json": json.dumps({"name": "logger", "exports": "./index.js"}),
            "packages/logger/index.js": "export function log() { return 1; }\n",
            "packages/bad/package.json": json.dumps({"name": "bad", "exports": {".": "index.js"}}),
            "packages/bad/index.js": "export function b() { return 1; }\n",
            "packages/app/uses_bad.js": "import { b } from 'bad';\nexport function u() { b(); }\n",
            # `import: null` under the checker's conditions: not exported to an import, whatever `default` says
            "packages/cjs/package.json": json.dumps({"name": "cjs", "exports": {"import": None, "default": "./c.js"}}),
            "packages/cjs/c.js": "export function c() { return 1; }\n",
            "packages/app/uses_cjs.js": "import { c } from 'cjs';\nexport function u() { c(); }\n",
            # both builds committed: the first matching condition in written order is the one imported
            "packages/dual/package.json": json.dumps(
                {"name": "dual", "exports": {"import": "./index.mjs", "default": "./index.cjs"}}
            ),
            "packages/dual/index.mjs": "export function esm() { return 1; }\n",
            "packages/dual/index.cjs": "exports.cjs = function cjs() { return 1; };\n",
            "packages/app/uses_dual.js": "import { esm } from 'dual';\nexport function u() { esm(); }\n",
        }
    )
    g = read_graph(build_graph(root, jobs=1).out_dir)
    log = imports_of(g, "packages/app/main.js")
    assert "packages/app/logger.js" not in log
    assert log["packages/logger/index.js"]["confidence"] == "EXTRACTED"
    dual = imports_of(g, "packages/app/uses_dual.js")
    assert dual["packages/dual/index.mjs"]["confidence"] == "EXTRACTED" and "packages/dual/index.cjs" not in dual
    for importer, target in (("uses_bad.js", "packages/bad/index.js"), ("uses_cjs.js", "packages/cjs/c.js")):
        edges = imports_of(g, f"packages/app/{importer}")
        assert target not in edges or edges[target]["confidence"] != "EXTRACTED", importer


def test_tsconfig_paths_written_with_backslashes_resolve_as_tsc_does(project):
    """tsc normalizes `\\` to `/` in `paths`, `baseUrl` and `extends` (a config written on Windows)."""
    root = project(
        {
            "tsconfig.base.json": '{ "compilerOptions": { "paths": { "@lib/*": ["libs\\\\shared\\\\*"] } } }',
            "apps/tsconfig.json": '{ "extends": "..\\\\tsconfig.base.json" }',
            "libs/shared/format.ts": "export function format() { return 1; }\n",
            "apps/main.ts": "import { format } from '@lib/format';\nexport function m() { format(); }\n",
        }
    )
    imports = imports_of(read_graph(build_graph(root, jobs=1).out_dir), "apps/main.ts")
    assert imports["libs/shared/format.ts"]["reason"] == "tsconfig.base.json paths '@lib/*'"
