// An esbuild plugin for the command's bundle: each named import of one of our modules is made
// an import of the module that defines the name, past any barrel (`core/internal`, the index's
// entry, a module that re-exports another's). esbuild splits chunks by file, and a barrel is
// one file: when a lean command (`ls`) and a heavy one (`search`) import different names from
// the same barrel, esbuild counts every module the barrel re-exports as reached by both, so
// the lean command would load the heavy one's modules too. Imported (or passed on: `export {
// a } from`) straight from where they are defined, the names bring only their own modules. The same modules are loaded, only
// fewer of them, so nothing changes but what a command loads.
//
// It reads tsc's output, whose forms are regular: `export function|class|const|let|var NAME`,
// `export { a, b as c };`, `export { a } from "./x.js";`, `export * from "./x.js";`, and
// `import { a, b as c } from "spec";` on one line each. A name it cannot trace (a form it does
// not know) leaves that import as it was: a larger chunk, never a wrong one.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

const DECLARATION = /^export (?:async )?(?:function\*?|class|const|let|var) ([\w$]+)/gm;
const LOCAL_LIST = /^export \{([^}]*)\};/gm;
const FROM_LIST = /^export \{([^}]*)\} from "([^"]+)";/gm;
const STAR = /^export \* from "([^"]+)";/gm;
const IMPORT = /^(import|export) \{([^}]*)\} from "([^"]+)";$/gm;

/** `a, b as c` as [imported, local] pairs (`type`-only names are gone from tsc's output). */
function specifiers(list) {
  return list
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      const [name, alias] = part.split(/\s+as\s+/);
      return [name, alias ?? name];
    });
}

/** What one module exports: its own names, and the names it passes on from others. */
function exportsOf(file, cache) {
  let known = cache.get(file);
  if (known !== undefined) return known;
  const text = readFileSync(file, "utf8");
  const own = new Set();
  const passed = new Map(); // exported name → [module, its name there]
  const stars = [];
  for (const m of text.matchAll(DECLARATION)) own.add(m[1]);
  for (const m of text.matchAll(LOCAL_LIST))
    for (const [, exported] of specifiers(m[1])) own.add(exported);
  for (const m of text.matchAll(FROM_LIST)) {
    const from = resolve(dirname(file), m[2]);
    for (const [name, exported] of specifiers(m[1])) passed.set(exported, [from, name]);
  }
  for (const m of text.matchAll(STAR)) stars.push(resolve(dirname(file), m[1]));
  known = { own, passed, stars };
  cache.set(file, known);
  return known;
}

/** The module and name that define `name` as `file` exports it; `undefined` if not traced. */
function origin(file, name, cache, depth = 0) {
  if (depth > 20 || !file.endsWith(".js")) return undefined;
  let known;
  try {
    known = exportsOf(file, cache);
  } catch {
    return undefined;
  }
  if (known.own.has(name)) return [file, name];
  const passed = known.passed.get(name);
  if (passed !== undefined) return origin(passed[0], passed[1], cache, depth + 1);
  const found = known.stars.map((star) => origin(star, name, cache, depth + 1)).filter(Boolean);
  // `export *` of two modules with the same name exports neither: leave it to esbuild.
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The plugin: `own` tells whether a path is one of our built modules (the only ones rewritten
 * and traced into).
 */
export function directImports(own) {
  const cache = new Map();
  return {
    name: "direct-imports",
    setup(bundler) {
      bundler.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!own(args.path)) return undefined;
        const text = readFileSync(args.path, "utf8");
        const resolved = new Map();
        for (const m of text.matchAll(IMPORT)) {
          const spec = m[3];
          if (resolved.has(spec) || spec.startsWith("node:")) continue;
          const found = await bundler.resolve(spec, {
            kind: "import-statement",
            resolveDir: dirname(args.path),
          });
          resolved.set(spec, found.errors.length === 0 && own(found.path) ? found.path : null);
        }
        const contents = text.replace(IMPORT, (statement, keyword, list, spec) => {
          const file = resolved.get(spec);
          if (file == null) return statement;
          const bySource = new Map();
          for (const [name, local] of specifiers(list)) {
            const traced = origin(file, name, cache);
            if (traced === undefined) return statement;
            const [source, sourceName] = traced;
            const names = bySource.get(source) ?? [];
            names.push(sourceName === local ? local : `${sourceName} as ${local}`);
            bySource.set(source, names);
          }
          return [...bySource]
            .map(
              ([source, names]) =>
                `${keyword} { ${names.join(", ")} } from ${JSON.stringify(source)};`,
            )
            .join(" ");
        });
        return { contents, loader: "js", resolveDir: dirname(args.path) };
      });
    },
  };
}
