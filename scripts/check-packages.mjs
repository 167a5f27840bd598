// The packages as an outside project gets them (`pnpm test:dist` at the root; turbo runs the
// packages' `build` first). Packs every public package (scripts/pack-all.mjs), checks each
// tarball's contents, manifest and links (outside/contents.mjs), installs only the tarballs
// into a fresh project with plain npm (one install), then:
//   1. compiles every code snippet of the repository's Markdown against them (strict tsc) and
//      runs each runnable one with Node, comparing its output where the Markdown shows it;
//   2. runs the snippets that are vitest tests and the pi-todo and testkit-exporter examples'
//      tests, copied as an outside author would copy them (testkit pi hook in setupFiles);
//   3. runs the CLI's bin, and imports the packages with the `@pi-sessions/source` condition
//      set, which an outside consumer must never resolve.
// Exits non-zero on any problem. KEEP_TMP=1 keeps the temp folder; `--reuse DIR` (a kept
// folder) skips packing and installing, to iterate on the snippets of the Markdown.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { readmeNodeFloor, tarballProblems } from "./outside/contents.mjs";
import {
  copyExamples,
  installProject,
  run,
  runSnippet,
  writeSnippets,
  writeTsconfig,
  writeVitestConfig,
} from "./outside/project.mjs";
import { packAll } from "./pack-all.mjs";

// pi 1.6.0, which the snippets and examples run, needs Node ≥ 22.19 (as our packages do).
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  console.error(
    `check-packages: needs Node >= 22.19, this is ${process.version}: run it as pnpm test:dist`,
  );
  process.exit(1);
}
const started = Date.now();
const step = (what) =>
  console.log(`[check-packages ${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);
const { values } = parseArgs({ options: { reuse: { type: "string" } } });
const reuse = values.reuse !== undefined && existsSync(join(values.reuse, "project/node_modules"));
const tmp = reuse ? resolve(values.reuse) : mkdtempSync(join(tmpdir(), "pi-sessions-outside-"));
const project = join(tmp, "project");
let failed = false;
try {
  step("packing the public packages");
  const packed = packAll(join(tmp, "tarballs"));
  const floor = readmeNodeFloor();
  const contents = packed.flatMap((p) => tarballProblems(p, floor));
  if (contents.length > 0) throw new Error(`tarball contents:\n  ${contents.join("\n  ")}`);
  step(`${packed.length} tarballs: contents, manifests and links fine; installing them with npm`);
  if (reuse) {
    rmSync(join(project, "snippets"), { recursive: true, force: true });
    rmSync(join(project, "out"), { recursive: true, force: true });
  } else installProject(project, packed);

  step("compiling every Markdown snippet and the examples against the tarballs");
  const { runs, count } = writeSnippets(project);
  copyExamples(project);
  writeTsconfig(project);
  writeVitestConfig(project);
  run(join(project, "node_modules/.bin/tsc"), ["-p", "."], project, "tsc over the snippets");

  step(`${count} snippets compiled; running the ${runs.length} runnable ones`);
  const problems = runs.map((s) => runSnippet(project, s)).filter((p) => p !== undefined);
  if (problems.length > 0) throw new Error(`snippets:\n${problems.join("\n\n")}`);

  step("vitest: the snippets that are tests, and the pi-todo and testkit-exporter examples");
  run(join(project, "node_modules/.bin/vitest"), ["run"], project, "vitest", {
    FC_RUNS: process.env.FC_RUNS ?? "30",
  });

  step("the CLI's bin, and no @pi-sessions/source condition reaches an outside consumer");
  execFileSync(join(project, "node_modules/.bin/pi-sessions"), ["--help"], {
    cwd: project,
    stdio: "ignore",
  });
  const names = packed.map((p) => JSON.stringify(p.name)).join(", ");
  const probe = `for (const n of [${names}]) { const url = import.meta.resolve(n); if (!url.includes("/dist/")) throw new Error(n + " resolved to " + url); await import(n); }`;
  run(
    process.execPath,
    ["--conditions=@pi-sessions/source", "--input-type=module", "-e", probe],
    project,
    "importing with the source condition",
  );
  step("passed");
} catch (error) {
  failed = true;
  console.error(`check-packages: ${error.message}`);
} finally {
  if (process.env.KEEP_TMP || reuse) console.log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
