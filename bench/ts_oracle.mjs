// The TypeScript checker as call-graph truth for bench/graph_oracles.py (`ts`).
// Reads {root, files, seed, sample} from the JSON file named on the command line; prints
// {version, sites: [{file, line, name, truth}]} where truth is [file, line] of the declaration in the repository,
// "external" (lib or node_modules) or null (the checker found no symbol). `typescript` comes from NODE_PATH.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const ts = require("typescript");
const { root, files, seed, sample } = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));

let options = { allowJs: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, jsx: ts.JsxEmit.Preserve };
const configPath = ts.findConfigFile(root, ts.sys.fileExists, "tsconfig.json");
if (configPath && path.dirname(configPath).startsWith(root)) {
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath));
  options = { ...parsed.options, noEmit: true, skipLibCheck: true };
}
const absolute = files.map((f) => path.join(root, f));
const program = ts.createProgram(absolute, options);
const checker = program.getTypeChecker();

// mulberry32: a seeded shuffle, so a run samples the same sites every time.
function rng(a) {
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sites = [];
for (const file of files) {
  const sf = program.getSourceFile(path.join(root, file));
  if (!sf) continue;
  const visit = (node) => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      let callee = node.expression;
      let nameNode = null;
      if (ts.isIdentifier(callee)) nameNode = callee;
      else if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.name)) nameNode = callee.name;
      if (nameNode) sites.push([file, sf, nameNode]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
const random = rng(seed);
for (let i = sites.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [sites[i], sites[j]] = [sites[j], sites[i]];
}

const out = [];
for (const [file, sf, nameNode] of sites.slice(0, sample)) {
  const line = sf.getLineAndCharacterOfPosition(nameNode.getStart(sf)).line + 1;
  let truth = null;
  let symbol = checker.getSymbolAtLocation(nameNode);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const decls = (symbol && symbol.declarations) || [];
  if (decls.length) {
    const decl = decls[0];
    const declFile = decl.getSourceFile().fileName;
    const rel = path.relative(root, declFile);
    if (rel.startsWith("..") || declFile.includes("node_modules") || declFile.endsWith(".d.ts")) truth = "external";
    else {
      const spots = new Set(decls.map((d) => d.getSourceFile().fileName + ":" + d.getStart()));
      // Overloads in one place are one target; declarations in several places mean the checker itself chose none.
      const declLine = decl.getSourceFile().getLineAndCharacterOfPosition(decl.getStart()).line + 1;
      truth = spots.size > 1 && new Set(decls.map((d) => d.getSourceFile().fileName)).size > 1
        ? null : [rel.split(path.sep).join("/"), declLine];
    }
  }
  out.push({ file, line, name: nameNode.text, truth });
}
process.stdout.write(JSON.stringify({ version: ts.version, sites: out }));
