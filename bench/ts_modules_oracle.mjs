// The TypeScript checker's module resolution as truth for bench/graph_oracles.py (`modules`).
// Reads {root, imports: [{file, module}]} from the JSON file named on the command line; prints
// {version, resolved: [path relative to root | "external" | null]} in the same order. Each importer uses the
// options of its nearest tsconfig.json (or jsconfig.json), parsed by TypeScript itself (extends, JSONC);
// `moduleResolution` left unset there is taken as Bundler (so `exports`/`imports` are read, as bundlers do).
// `typescript` comes from NODE_PATH.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const ts = require("typescript");
const { root, imports } = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));

const defaults = { allowJs: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
const byConfig = new Map();
function optionsFor(file) {
  let dir = path.dirname(path.join(root, file));
  while (dir.startsWith(root)) {
    for (const name of ["tsconfig.json", "jsconfig.json"]) {
      const config = path.join(dir, name);
      if (fs.existsSync(config)) {
        if (!byConfig.has(config)) {
          const read = ts.readConfigFile(config, ts.sys.readFile);
          const parsed = ts.parseJsonConfigFileContent(read.config || {}, ts.sys, dir, undefined, config);
          const options = { ...parsed.options, allowJs: true };
          if (options.moduleResolution === undefined) {
            options.moduleResolution = ts.ModuleResolutionKind.Bundler;
            options.module = ts.ModuleKind.ESNext;
          }
          byConfig.set(config, options);
        }
        return byConfig.get(config);
      }
    }
    if (dir === root) break;
    dir = path.dirname(dir);
  }
  return defaults;
}

const resolved = imports.map(({ file, module }) => {
  const hit = ts.resolveModuleName(module, path.join(root, file), optionsFor(file), ts.sys).resolvedModule;
  if (!hit) return null;
  const real = fs.realpathSync(hit.resolvedFileName);
  if (!real.startsWith(root + path.sep) || real.includes(`${path.sep}node_modules${path.sep}`)) return "external";
  return path.relative(root, real).split(path.sep).join("/");
});
process.stdout.write(JSON.stringify({ version: ts.version, resolved }));
