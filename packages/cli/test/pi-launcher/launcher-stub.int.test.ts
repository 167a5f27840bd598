/**
 * The launcher around stub pi packages (fast, no real pi): how it finds pi (PATH symlink,
 * `PI_SESSIONS_PI`, `--pi`, a pnpm shell shim), that only a tested version is swapped and
 * then completely (our SessionManager, every other export pi's own), that any other version
 * or a pi missing a file runs unchanged after one line (SPEC L2), and that arguments, stdin,
 * exit codes and a killing signal pass through. Also `node --import @pi-sessions/cli/pi-hook`.
 */

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { binCommand, runBin } from "../helpers/run-bin.js";
import { collect, hookNodeOptions } from "./pi-sides.js";
import { binDirFor, makeStubPi, type StubReport, shimFor } from "./stub-pi.js";

const withPath = (dir: string) => ({ PATH: `${dir}${delimiter}${process.env.PATH ?? ""}` });
const report = (stdout: string) => JSON.parse(stdout) as StubReport;
const lines = (text: string) => text.split("\n").filter((l) => l !== "");

describe("pi-sessions pi with stub pi packages", () => {
  it("swaps a tested version completely: our SessionManager, pi's other exports, args and stdin as given", async () => {
    const root = tempDir("pi-stub-");
    const stub = makeStubPi(join(root, "pi"), "1.6.4", "full");
    const env = withPath(binDirFor(join(root, "bin"), stub));
    const run = await runBin(["pi", "-p", "two words", "--", "-x"], { env, input: "typed" });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(report(run.stdout)).toEqual({
      entry: "cli",
      args: ["-p", "two words", "--", "-x"],
      stdin: "typed",
      ours: true,
      sentinel: "stub module",
      version: 3,
    });
  });

  it("runs an untested version unchanged after one line naming it (PI_SESSIONS_PI, --pi)", async () => {
    const root = tempDir("pi-stub-");
    const stub = makeStubPi(join(root, "pi"), "1.7.0", "full");
    for (const how of [
      { env: { PI_SESSIONS_PI: stub }, args: [] },
      { env: {}, args: ["--pi", stub] },
    ]) {
      const run = await runBin(["pi", ...how.args, "hello"], {
        env: { ...how.env, STUB_EXIT: "3" },
      });
      expect(run.code).toBe(3);
      expect(report(run.stdout)).toMatchObject({ entry: "bin", args: ["hello"] });
      expect(lines(run.stderr)).toHaveLength(1);
      expect(run.stderr).toContain("pi 1.7.0 is not a version pi-sessions has tested (1.6.x)");
      expect(run.stderr).toContain("running it unchanged");
    }
  });

  it("never half-swaps: a tested version without its session-manager module runs unchanged", async () => {
    const root = tempDir("pi-stub-");
    const stub = makeStubPi(join(root, "pi"), "1.6.0", "no-manager");
    const run = await runBin(["pi", "--pi", stub, "x"], {});
    expect(run.code).toBe(0);
    expect(report(run.stdout).entry).toBe("bin");
    expect(lines(run.stderr)).toEqual([
      `pi-sessions: pi 1.6.0 at ${stub} has no dist/core/session-manager.js; running it unchanged on its own session manager`,
    ]);
  });

  it("follows a pnpm shell shim to the package, and says in one line when there is no pi", async () => {
    const root = tempDir("pi-stub-");
    const stub = makeStubPi(join(root, "pi"), "1.6.1", "full");
    const shim = shimFor(join(root, "pi-shim"), stub);
    const viaShim = await runBin(["pi", "--pi", shim], {});
    expect(viaShim.stderr).toBe("");
    expect(report(viaShim.stdout)).toMatchObject({ entry: "cli", ours: true });

    const none = await runBin(["pi"], { env: { PATH: join(root, "empty") } });
    expect(none.code).toBe(2);
    expect(lines(none.stderr)).toEqual([
      "pi-sessions: no `pi` command on PATH; install pi (npm install -g @earendil-works/pi-coding-agent@1.6.x) or name it with --pi PATH or PI_SESSIONS_PI",
    ]);
    const notPi = await runBin(["pi", "--pi", root], {});
    expect(notPi.code).toBe(2);
    expect(notPi.stderr).toContain("is not inside a pi package");
    // `--pi` without its path is ours to refuse, in one line, not pi's to puzzle over.
    for (const args of [["--pi"], ["--pi="], ["--pi", "-p", "hello"]]) {
      const noPath = await runBin(["pi", ...args], { env: { PI_SESSIONS_PI: stub } });
      expect(noPath.code, args.join(" ")).toBe(2);
      expect(noPath.stdout).toBe("");
      expect(lines(noPath.stderr)).toEqual([
        "pi-sessions: --pi needs a path (pi's bin or package directory)",
      ]);
    }
  });

  it("passes pi's exit code, and dies by the signal that killed pi", async () => {
    const root = tempDir("pi-stub-");
    const stub = makeStubPi(join(root, "pi"), "1.6.2", "full");
    const exits = await runBin(["pi", "--pi", stub], { env: { STUB_EXIT: "7" } });
    expect(exits.code).toBe(7);
    const child = spawn(process.execPath, [...binCommand(), "pi", "--pi", stub], {
      env: { ...process.env, STUB_SIGNAL: "SIGTERM" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const killed = await collect(child, "");
    expect(killed.signal).toBe("SIGTERM");
  });

  it("works as `node --import @pi-sessions/cli/pi-hook <pi's bin>`: bundle entry replaced, untested ones left", async () => {
    const root = tempDir("pi-stub-");
    const tested = makeStubPi(join(root, "tested"), "1.6.3", "full");
    const untested = makeStubPi(join(root, "untested"), "2.0.0", "full");
    const hook = (bin: string) => {
      const args = [...hookNodeOptions(), bin, "arg"];
      return collect(spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] }), "");
    };
    const swapped = await hook(join(tested, "dist", "bundle", "cli.js"));
    expect(swapped.stderr).toBe("");
    expect(report(swapped.stdout)).toMatchObject({ entry: "cli", ours: true, args: ["arg"] });
    const unchanged = await hook(join(untested, "dist", "bundle", "cli.js"));
    expect(report(unchanged.stdout)).toMatchObject({ entry: "bin", args: ["arg"] });
    expect(lines(unchanged.stderr)).toHaveLength(1);
    expect(unchanged.stderr).toContain("pi 2.0.0 is not a version pi-sessions has tested");
    const other = join(root, "other.mjs");
    writeFileSync(other, "process.stdout.write('other ran');\n");
    const notPi = await hook(other);
    expect(notPi.stdout).toBe("other ran");
    expect(lines(notPi.stderr)).toEqual([
      `pi-sessions: ${other} is not a file of a pi package; nothing swapped`,
    ]);
  });
});
