/**
 * The two sides of a launcher comparison: the real `pi` command as users run it (its bundled
 * bin, pi's own session manager), and `pi-sessions pi` (the CLI's real entry point finding pi
 * on PATH through a symlink, as an npm global install leaves it). Each side has its own temp
 * HOME, agent dir, working directory and session index, so nothing is read from or written to
 * the machine's ~/.pi, and pi is told to stay offline; the model is the scripted extension.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { binCommand, CLI_DIR } from "../helpers/run-bin.js";
import { SCRIPTED_MODEL, SCRIPTED_PI_ARGS } from "./fixtures/pi-flags.mjs";

/** pi's package directory (the workspace's pi 1.6.0). */
export const PI_ROOT = realpathSync(
  join(dirname(fileURLToPath(import.meta.resolve("@earendil-works/pi-coding-agent"))), ".."),
);
/** pi's bin: what `pi` on a user's PATH runs. */
export const PI_BIN = join(PI_ROOT, "dist", "bundle", "cli.js");
/** The scripted model extension. */
export { SCRIPTED_MODEL };

/** Which pi a side runs. */
export type SideKind = "pi" | "ours";

/** One side's directories (same layout, and same path lengths, on both sides). */
export interface PiSide {
  readonly kind: SideKind;
  readonly root: string;
  readonly home: string;
  readonly agentDir: string;
  /** `<agentDir>/sessions`: where pi keeps sessions. */
  readonly sessionsDir: string;
  /** The working directory pi and its tools run in. */
  readonly cwd: string;
  /** Where exports go. */
  readonly exportDir: string;
  /** The session index of this side (`PI_SESSIONS_INDEX`). */
  readonly indexFile: string;
  /** A directory with a `pi` symlink to pi's bin, first on this side's PATH. */
  readonly binDir: string;
}

/** Makes a side under `parent` (`a-pi` or `a-us`: equal lengths, so tool outputs align). */
export function makeSide(parent: string, kind: SideKind): PiSide {
  const root = join(parent, kind === "pi" ? "a-pi" : "a-us");
  const side: PiSide = {
    kind,
    root,
    home: join(root, "home"),
    agentDir: join(root, "agent"),
    sessionsDir: join(root, "agent", "sessions"),
    cwd: join(root, "work"),
    exportDir: join(root, "export"),
    indexFile: join(root, "index", "index.sqlite"),
    binDir: join(root, "bin"),
  };
  for (const dir of [side.home, side.agentDir, side.cwd, side.exportDir, side.binDir]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(side.cwd, "notes.txt"), "hello notes\nsecond line\n");
  // No automatic compaction or retry (the tests compact by hand, and no request repeats); a
  // tiny keepRecentTokens makes a manual compaction cut inside the last turn.
  const settings = {
    compaction: { enabled: false, keepRecentTokens: 1 },
    retry: { enabled: false },
  };
  writeFileSync(join(side.agentDir, "settings.json"), `${JSON.stringify(settings)}\n`);
  symlinkSync(PI_BIN, join(side.binDir, "pi"));
  return side;
}

/** The environment of a side: the test's own without pi's variables, pointed at the side. */
export function sideEnv(side: PiSide, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("PI_") && k !== "NODE_OPTIONS"),
  );
  return {
    ...env,
    HOME: side.home,
    PATH: `${side.binDir}${delimiter}${process.env.PATH ?? ""}`,
    PI_CODING_AGENT_DIR: side.agentDir,
    PI_OFFLINE: "1",
    PI_TELEMETRY: "0",
    PI_SKIP_VERSION_CHECK: "1",
    PI_SESSIONS_INDEX: side.indexFile,
    NO_COLOR: "1",
    ...extra,
  };
}

/** pi's options every run of the tests passes: the scripted model, nothing discovered. */
export function commonPiArgs(): string[] {
  return [...SCRIPTED_PI_ARGS];
}

/**
 * Node's options that load the launcher's `--import` module as a user would: the built one
 * (`PI_SESSIONS_CLI_DIST=1`), else the sources through tsx.
 */
export function hookNodeOptions(): string[] {
  if (process.env.PI_SESSIONS_CLI_DIST === "1") {
    return ["--import", pathToFileURL(join(CLI_DIR, "dist", "pi-launcher", "pi-hook.js")).href];
  }
  return [
    ...binCommand().slice(0, -1),
    "--import",
    import.meta.resolve("@pi-sessions/cli/pi-hook"),
  ];
}

/** The command line (after `node`) of a side running pi with `args`. */
export function sideCommand(side: PiSide, args: readonly string[]): string[] {
  return side.kind === "pi" ? [PI_BIN, ...args] : [...binCommand(), "pi", ...args];
}

/** Starts a side's pi with `args` in its cwd, stdio piped. */
export function startSide(
  side: PiSide,
  args: readonly string[],
  extraEnv: NodeJS.ProcessEnv = {},
): ChildProcess {
  return spawn(process.execPath, sideCommand(side, args), {
    cwd: side.cwd,
    env: sideEnv(side, extraEnv),
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** What one run of pi printed and how it ended. */
export interface PiRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a side's pi with `args` to its end, `input` on stdin. */
export function runSide(
  side: PiSide,
  args: readonly string[],
  options: { input?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<PiRun> {
  const child = startSide(side, args, options.env);
  return collect(child, options.input ?? "");
}

/** Collects a child's output and end; `input`, when given, is written to stdin and closes it. */
export function collect(child: ChildProcess, input?: string): Promise<PiRun> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    if (input !== undefined) child.stdin?.end(input);
  });
}
