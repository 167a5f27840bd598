// `pi-sessions pi` as an outsider gets it: packs every public package with the root's
// scripts/pack-all.mjs (`pnpm pack`, dist/ built first: turbo runs `build` before `test:dist`),
// checks the packed manifests carry no `workspace:` range and that the cli's packed `exports`
// (publishConfig's, which replace the source ones) still offer `./pi-hook`, installs the
// tarballs with npm into a fresh temp project, and runs the real pi of this workspace (1.6.0)
//   1. through the installed bin: `pi-sessions pi --pi <pi> -p …` with the scripted model;
//   2. the documented way by hand: `node --import @pi-sessions/cli/pi-hook <pi's bin> -p …`;
//   3. `--session <id prefix>`, which pi resolves with SessionManager.list (the index answers);
//   4. the README's "Try it without an API key": the shipped extensions/echo-model.ts as the
//      model, with nothing but `-e <installed file> --model faux/faux-1`.
// Each must answer, and leave a session file our engine wrote (mode 0600, directory 0700).
// Exits non-zero on any failure; KEEP_TMP=1 keeps the temp project.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { packAll } from "../../../scripts/pack-all.mjs";
import { SCRIPTED_PI_ARGS } from "../test/pi-launcher/fixtures/pi-flags.mjs";

const piRoot = join(
  dirname(fileURLToPath(import.meta.resolve("@earendil-works/pi-coding-agent"))),
  "..",
);

const started = Date.now();
const step = (what) =>
  console.log(`[launcher-tarball ${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);
function fail(message) {
  console.error(`launcher-tarball-check: ${message}`);
  process.exit(1);
}
function run(cmd, args, options = {}) {
  try {
    return execFileSync(cmd, args, {
      encoding: "utf8",
      stdio: ["pipe", "pipe", "pipe"],
      ...options,
    });
  } catch (error) {
    fail(`${cmd} ${args.join(" ")} failed: ${error.stderr ?? error.message}`);
  }
}

const tmp = mkdtempSync(join(tmpdir(), "pi-launcher-dist-"));
try {
  step("packing every public package (scripts/pack-all.mjs)");
  const packed = packAll(join(tmp, "tarballs"));
  const tarballs = [];
  for (const { name, tarball } of packed) {
    const manifest = run("tar", ["-xzOf", tarball, "package/package.json"]);
    if (manifest.includes("workspace:"))
      fail(`${name}'s packed package.json keeps a workspace: range`);
    if (name === "@pi-sessions/cli" && !JSON.parse(manifest).exports?.["./pi-hook"])
      fail("the packed @pi-sessions/cli does not export ./pi-hook (publishConfig.exports)");
    tarballs.push(tarball);
  }
  const project = join(tmp, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ name: "outsider", private: true })}\n`,
  );
  step("installing the tarballs with npm");
  run("npm", ["install", "--no-audit", "--no-fund", ...tarballs], {
    cwd: project,
  });

  const home = join(tmp, "home");
  const agent = join(tmp, "agent");
  const work = join(tmp, "work");
  for (const d of [home, agent, work]) mkdirSync(d, { recursive: true });
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PI_"))),
    HOME: home,
    PI_CODING_AGENT_DIR: agent,
    PI_OFFLINE: "1",
    PI_TELEMETRY: "0",
    PI_SKIP_VERSION_CHECK: "1",
  };
  const piArgs = SCRIPTED_PI_ARGS;
  const expectAnswer = (out, prompt) => {
    if (out.trim() !== `Noted: ${prompt}`)
      fail(`expected "Noted: ${prompt}", got ${JSON.stringify(out)}`);
  };

  step("1. node_modules/.bin/pi-sessions pi --pi <pi> -p …");
  const bin = join(project, "node_modules", ".bin", "pi-sessions");
  expectAnswer(
    run(process.execPath, [bin, "pi", "--pi", piRoot, ...piArgs, "-p", "From the tarball."], {
      cwd: work,
      env,
    }),
    "From the tarball.",
  );

  step("2. node --import @pi-sessions/cli/pi-hook <pi's bin> -p …");
  const piBin = join(piRoot, "dist", "bundle", "cli.js");
  expectAnswer(
    run(
      process.execPath,
      ["--import", "@pi-sessions/cli/pi-hook", piBin, ...piArgs, "-p", "By hand."],
      { cwd: project, env },
    ),
    "By hand.",
  );

  const sessions = join(agent, "sessions");
  const files = readdirSync(sessions, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".jsonl"));
  if (files.length !== 2) fail(`expected 2 session files, found ${files.join(", ")}`);
  for (const f of files) {
    const mode = (statSync(join(sessions, f)).mode & 0o777).toString(8);
    if (mode !== "600") fail(`${f} has mode ${mode}: not written by our engine`);
    const dirMode = (statSync(dirname(join(sessions, f))).mode & 0o777).toString(8);
    if (dirMode !== "700") fail(`${dirname(f)} has mode ${dirMode}`);
  }

  step("3. --session <id prefix> (pi lists sessions: through the index)");
  const first = files[0];
  const id = first.split("_").at(-1).replace(".jsonl", "").slice(0, 12);
  const cwdOf = (f) => JSON.parse(run("head", ["-1", join(sessions, f)])).cwd;
  expectAnswer(
    run(process.execPath, [bin, "pi", "--pi", piRoot, ...piArgs, "--session", id, "-p", "Again."], {
      cwd: cwdOf(first),
      env,
    }),
    "Again.",
  );

  step("4. pi-sessions pi -e <installed extensions/echo-model.ts> --model faux/faux-1 -p …");
  const echoModel = join(
    project,
    "node_modules",
    "@pi-sessions",
    "cli",
    "extensions",
    "echo-model.ts",
  );
  if (!existsSync(echoModel)) fail("the packed @pi-sessions/cli has no extensions/echo-model.ts");
  expectAnswer(
    run(
      process.execPath,
      [
        bin,
        "pi",
        "--pi",
        piRoot,
        "-e",
        echoModel,
        "--model",
        "faux/faux-1",
        "-p",
        "Remember the tests.",
      ],
      { cwd: work, env },
    ),
    "Remember the tests.",
  );
  step("ok");
} finally {
  if (process.env.KEEP_TMP === "1") console.log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
