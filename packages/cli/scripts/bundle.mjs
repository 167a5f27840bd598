// Bundles the built command line into `dist/bin/` (one entry point plus a chunk per command,
// and a plain `ls` on its own in `dist/bin/ls/`)
// so a fresh process loads a few files instead of some three hundred modules: `--version` drops
// from about 150 to 70 ms, and every command saves the same. Commands stay lazy (esbuild's
// splitting keeps each `import()` of a command module a chunk of its own). SQLite is Node's own
// `node:sqlite`, which the platform setting leaves outside the bundle.
//
// A command loads only the modules it uses: each name is imported from the module that defines
// it, past the packages' barrels (`direct-imports.mjs`: esbuild splits by file, and a barrel
// that a lean and a heavy command share would give the lean one every module the heavy one
// uses), and our own modules are bundled as free of import side effects, so one imported and
// not used is dropped. Without both, `ls` loaded every module of core, io-ts, fp-ts, immer, the
// plugins and the index: about half of what a warm `ls --all` cost on a small folder. No
// module of ours is imported for what loading it does (no bare `import "./x.js"`): checked
// below before each bundle.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { directImports } from "./direct-imports.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The built modules of the workspace packages the command bundles. */
const OWN_DIST = /[\\/]packages[\\/](cli|core|index|plugins|redact|store-postgres)[\\/]dist[\\/]/;

/** `import "…"` or `import '…'` at the start of a line: a module loaded for its side effects. */
const BARE_IMPORT = /^import\s*["']/m;

/** The `.js` files under `dir`, recursively. */
function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "bin" ? [] : jsFiles(path);
    return entry.name.endsWith(".js") ? [path] : [];
  });
}

/** Stops the bundle when a module of ours is loaded for its side effects alone. */
function checkNoBareImports() {
  const packages = ["cli", "core", "index", "plugins", "redact", "store-postgres"];
  for (const name of packages) {
    for (const file of jsFiles(join(root, "..", name, "dist"))) {
      if (BARE_IMPORT.test(readFileSync(file, "utf8"))) {
        throw new Error(`${file} imports a module for its side effects: bundle.mjs assumes none`);
      }
    }
  }
}

/** esbuild: our own modules are side-effect free (see above); everything else as it says. */
const ownModulesArePure = {
  name: "own-modules-are-pure",
  setup(bundler) {
    bundler.onResolve({ filter: /^\.{1,2}\/|^@pi-sessions\// }, async (args) => {
      if (args.pluginData?.resolving) return undefined;
      const resolved = await bundler.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0 || !OWN_DIST.test(resolved.path)) return undefined;
      return { ...resolved, sideEffects: false };
    });
  },
};

/** The `require` bundled CommonJS dependencies (commander, pg) call for Node's own modules. */
const REQUIRE_BANNER =
  "import { createRequire as __piSessionsRequire } from 'node:module'; const require = __piSessionsRequire(import.meta.url);";

/**
 * Takes the banner off every chunk that never calls `require`: most chunks are our own ESM,
 * and a `createRequire` in each file a command loads is start-up for nothing.
 */
function dropUnusedRequire(dir) {
  for (const file of jsFiles(dir)) {
    const text = readFileSync(file, "utf8");
    if (!text.startsWith(REQUIRE_BANNER)) continue;
    const body = text.slice(REQUIRE_BANNER.length);
    if (!/\brequire\b/.test(body)) writeFileSync(file, body.replace(/^\n/, ""));
  }
}

checkNoBareImports();

// Chunk names carry content hashes: clear the old ones rather than let them pile up.
rmSync(new URL("../dist/bin", import.meta.url), { recursive: true, force: true });

// `--metafile FILE` writes esbuild's account of which module went into which chunk (to see
// what a command loads: `node scripts/chunk-report.mjs FILE ls`).
const metaAt = process.argv.indexOf("--metafile");
const metafile = metaAt === -1 ? undefined : process.argv[metaAt + 1];

/** The options both bundles share. */
const common = {
  absWorkingDir: root,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node22",
  plugins: [ownModulesArePure, directImports((path) => OWN_DIST.test(path))],
  // Bundled CommonJS dependencies (commander) call `require` for Node's own modules.
  banner: { js: REQUIRE_BANNER },
  logLevel: "warning",
  metafile: metafile !== undefined,
};

const result = await build({
  ...common,
  entryPoints: ["dist/main.js"],
  outdir: "dist/bin",
  splitting: true,
});
// A plain `ls` on its own (`ls-main.ts`): its warm listing loads this one file, not the
// program's shared chunks (each chunk a module to resolve, read and link: about a fifth of a
// warm `ls --all` on a thousand sessions). What only a cold or irregular listing needs (core's
// listings, the index's per-file step) stays in chunks of its own, loaded only then.
const ls = await build({
  ...common,
  entryPoints: ["dist/ls-main.js"],
  outdir: "dist/bin/ls",
  splitting: true,
});
if (metafile !== undefined) {
  writeFileSync(metafile, JSON.stringify(result.metafile));
  writeFileSync(`${metafile}.ls.json`, JSON.stringify(ls.metafile));
}
dropUnusedRequire(fileURLToPath(new URL("../dist/bin", import.meta.url)));
