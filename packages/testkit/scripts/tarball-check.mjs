// The testkit as an outside project gets it: packs @pi-sessions/core and @pi-sessions/testkit
// with `pnpm pack` (their dist/ must be built; turbo runs `build` first), checks the packed
// manifests carry no `workspace:` ranges, installs both tarballs with npm into a fresh temp
// project (plus pinned fast-check and vitest from the registry), then
//   1. runs a plain-Node smoke test of the testkit's dist (no TypeScript, no source condition):
//      runConformance on the packed core, model runs, an arbitrary, checkReader over generated
//      sessions roots (a right reader passes, a naive counter is caught and shrunk);
//      then a node:test file that uses checkReader;
//   2. runs the testkit-exporter example's test (its exporter source copied along) with vitest,
//      its folder-level property through checkReader included.
// Exits non-zero on any failure. KEEP_TMP=1 keeps the temp project; FC_RUNS is passed on
// (default 50 here, to keep the whole check well under 90 s).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const testkitDir = here("..");
const coreDir = here("../../core");
const exampleDir = here("../../../examples/testkit-exporter");
const PINNED = { "fast-check": "4.10.2", vitest: "4.1.12", vite: "8.3.8" };

const started = Date.now();
const step = (what) =>
  console.log(`[tarball-check ${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);

function fail(message) {
  console.error(`tarball-check: ${message}`);
  process.exit(1);
}

/** Runs a command, inheriting output; fails the check when it exits non-zero. */
function run(cmd, args, cwd, env = {}) {
  try {
    execFileSync(cmd, args, { cwd, stdio: "inherit", env: { ...process.env, ...env } });
  } catch {
    fail(`${cmd} ${args.join(" ")} failed in ${cwd}`);
  }
}

/** The text of one file inside a .tgz. */
const fromTarball = (tgz, path) => execFileSync("tar", ["-xzOf", tgz, path], { encoding: "utf8" });
const listTarball = (tgz) => execFileSync("tar", ["-tzf", tgz], { encoding: "utf8" }).split("\n");

for (const dir of [coreDir, testkitDir]) {
  if (!existsSync(join(dir, "dist/index.js")) || !existsSync(join(dir, "dist/index.d.ts"))) {
    fail(`${dir}/dist is missing: build first (pnpm build, or turbo run test:dist)`);
  }
}

const tmp = mkdtempSync(join(tmpdir(), "pi-testkit-dist-"));
try {
  step(`packing core and testkit into ${tmp}`);
  const tarballs = {};
  for (const [name, dir] of [
    ["core", coreDir],
    ["testkit", testkitDir],
  ]) {
    const tgz = join(tmp, `${name}.tgz`);
    execFileSync("pnpm", ["pack", "--out", tgz], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const manifest = fromTarball(tgz, "package/package.json");
    if (manifest.includes("workspace:"))
      fail(`packed ${name} package.json still has workspace: ranges`);
    const files = listTarball(tgz);
    for (const needed of ["package/dist/index.js", "package/dist/index.d.ts"]) {
      if (!files.includes(needed)) fail(`packed ${name} lacks ${needed}`);
    }
    tarballs[name] = tgz;
  }

  step("creating the project and installing the tarballs with npm");
  const project = join(tmp, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify(
      {
        name: "pi-testkit-dist-check",
        private: true,
        type: "module",
        dependencies: {
          "@pi-sessions/core": `file:${tarballs.core}`,
          "@pi-sessions/testkit": `file:${tarballs.testkit}`,
          ...PINNED,
        },
      },
      null,
      2,
    )}\n`,
  );
  const install = ["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefer-offline"];
  try {
    execFileSync("npm", install, { cwd: project, stdio: "inherit" });
  } catch {
    // npm can fail to read a package's metadata while another npm (the other packages' checks
    // run beside this one under turbo) writes the same cache: one more try, then it is real.
    step("npm install failed; trying once more");
    rmSync(join(project, "node_modules"), { recursive: true, force: true });
    run("npm", install, project);
  }

  step("plain Node: the testkit's dist against the packed core");
  writeFileSync(
    join(project, "smoke.mjs"),
    `import * as core from "@pi-sessions/core";
import * as testkit from "@pi-sessions/testkit";
import fc from "fast-check";
const report = await testkit.runConformance(core, { name: "packed core", numRuns: 20 });
console.log(testkit.summarizeReport(report));
if (report.failed > 0 || report.referenceDeviations.length > 0) {
  console.error(testkit.formatReport(report));
  process.exit(1);
}
const logs = fc.sample(testkit.sessionLogArb({ maxEntries: 10 }), { numRuns: 5, seed: 1 });
if (!logs.every((log) => core.SessionManager.inMemory("/x", undefined, [log.header, ...log.entries]).getEntryCount() === log.entries.length)) {
  console.error("generated logs do not load into the packed core");
  process.exit(1);
}
// checkReader from plain Node: a reader that counts each folder's files must agree with the
// facts, and one that counts every line's usage record twice-over must be caught and shrunk.
const { readdirSync, readFileSync } = await import("node:fs");
const files = (root) => readdirSync(root).flatMap((d) => readdirSync(root + "/" + d).map((n) => root + "/" + d + "/" + n));
const ok = await testkit.checkReader(files, (out, folder) => out.length === folder.files.length, { numRuns: 20 });
if (ok.failed) process.exit(1);
const naive = (root) => files(root).flatMap((f) => readFileSync(f, "utf8").split("\\n")).filter((l) => l.includes('"usage":{')).length;
const caught = await testkit.checkReader(naive, (n, folder) => n === testkit.usageOracle(folder).total.records, { numRuns: 100, log: false });
if (!caught.failed || caught.folder.files.length > 3) {
  console.error("checkReader did not catch the naive counter", caught.text);
  process.exit(1);
}
console.log(ok.text + "; the naive counter was caught: " + caught.folder.files.length + " file(s)");
console.log("plain-Node smoke test passed");
`,
  );
  run(process.execPath, ["smoke.mjs"], project);

  step("node:test: checkReader inside Node's own test runner");
  writeFileSync(
    join(project, "node-test-folders.mjs"),
    `import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { test } from "node:test";
import { checkReader } from "@pi-sessions/testkit";
test("a reader that lists every session file sees every file of the folder", async () => {
  const list = (root) => readdirSync(root).flatMap((d) => readdirSync(root + "/" + d));
  const report = await checkReader(list, (names, folder) => names.length === folder.files.length, { numRuns: 20 });
  assert.equal(report.failed, false, report.text);
});
`,
  );
  run(process.execPath, ["--test", "node-test-folders.mjs"], project);

  step("vitest: the testkit-exporter example's test");
  cpSync(join(exampleDir, "src/exporter.ts"), join(project, "src/exporter.ts"));
  cpSync(join(exampleDir, "test"), join(project, "test"), { recursive: true });
  // The workspace's vitest config (no time budget) is not copied: a temp project would get
  // vitest's 5 s default, too short for property runs on a loaded 2-core machine.
  run(
    join(project, "node_modules/.bin/vitest"),
    ["run", "--testTimeout=0", "--hookTimeout=0"],
    project,
    {
      FC_RUNS: process.env.FC_RUNS ?? "50",
    },
  );
  step("passed");
} finally {
  if (process.env.KEEP_TMP) console.log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
