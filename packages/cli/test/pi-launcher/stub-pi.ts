/**
 * Stub pi packages for the launcher's version and argument tests: a package.json naming a
 * version, a bin that reports what it got (arguments, stdin, which SessionManager its
 * session-manager module exports, the module's other exports) and exits as asked, and, for a
 * "1.6.x" stub, pi's file layout (`dist/cli.js` importing `dist/core/session-manager.js`).
 */

import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What a stub run printed (its stdout is one JSON line). */
export interface StubReport {
  readonly entry: "bin" | "cli";
  readonly args: string[];
  readonly stdin: string;
  /** Whether `dist/core/session-manager.js` gave our SessionManager (`cli` entry only). */
  readonly ours?: boolean;
  /** The module's other exports, as the stub's own module defines them. */
  readonly sentinel?: string;
  readonly version?: number;
}

/** A bin script that reports and exits with `STUB_EXIT` (or kills itself with `STUB_SIGNAL`). */
function reporter(entry: "bin" | "cli", importsManager: boolean): string {
  return [
    importsManager
      ? `import { SessionManager, stubSentinel, CURRENT_SESSION_VERSION } from "./core/session-manager.js";`
      : "",
    "let stdin = '';",
    "process.stdin.setEncoding('utf8');",
    "for await (const chunk of process.stdin) stdin += chunk;",
    `const report = { entry: ${JSON.stringify(entry)}, args: process.argv.slice(2), stdin };`,
    importsManager
      ? "Object.assign(report, { ours: typeof SessionManager.prototype.getLoadDiagnostics === 'function', sentinel: stubSentinel(), version: CURRENT_SESSION_VERSION });"
      : "",
    "process.stdout.write(JSON.stringify(report) + '\\n');",
    "if (process.env.STUB_SIGNAL) process.kill(process.pid, process.env.STUB_SIGNAL);",
    "else process.exitCode = Number(process.env.STUB_EXIT ?? 0);",
    "",
  ].join("\n");
}

/**
 * Makes a stub pi package at `dir` with `version`; `layout` "full" adds pi's unbundled files,
 * "no-manager" only `dist/cli.js`. Returns the package directory.
 */
export function makeStubPi(
  dir: string,
  version: string,
  layout: "bin-only" | "full" | "no-manager" = "bin-only",
): string {
  mkdirSync(join(dir, "dist", "bundle"), { recursive: true });
  mkdirSync(join(dir, "dist", "core"), { recursive: true });
  const pkg = {
    name: "@earendil-works/pi-coding-agent",
    version,
    type: "module",
    bin: { pi: "dist/bundle/cli.js" },
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  const bin = join(dir, "dist", "bundle", "cli.js");
  writeFileSync(bin, `#!/usr/bin/env node\n${reporter("bin", false)}`);
  chmodSync(bin, 0o755);
  if (layout !== "bin-only") writeFileSync(join(dir, "dist", "cli.js"), reporter("cli", true));
  if (layout === "full") {
    writeFileSync(
      join(dir, "dist", "core", "session-manager.js"),
      [
        "export const CURRENT_SESSION_VERSION = 3;",
        "export function stubSentinel() { return 'stub module'; }",
        "export class SessionManager {}",
        "",
      ].join("\n"),
    );
  }
  return dir;
}

/** A directory holding a `pi` symlink to the stub's bin, for PATH. */
export function binDirFor(dir: string, stubRoot: string): string {
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(stubRoot, "dist", "bundle", "cli.js"), join(dir, "pi"));
  return dir;
}

/** A pnpm-style shell shim for the stub (pnpm's global `pi` is such a script). */
export function shimFor(path: string, stubRoot: string): string {
  const target = join(stubRoot, "dist", "bundle", "cli.js");
  writeFileSync(path, `#!/bin/sh\nexec node "${target}" "$@"\n# cmd-shim-target=${target}\n`);
  chmodSync(path, 0o755);
  return path;
}
