/**
 * Finds the user's installed pi: the `pi` command on `PATH` (its bin is a symlink into the
 * package), or a path named by `--pi` / `PI_SESSIONS_PI` (the bin, any file inside the package,
 * or the package directory), and reads what the launcher needs from its package.json.
 */

import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { TESTED_PI_VERSIONS } from "./pi-versions.js";

/** The environment variable that names pi (a bin, a file in its package, or its directory). */
export const PI_PATH_ENV = "PI_SESSIONS_PI";

/** What the launcher knows about an installed pi package. */
export interface PiPackage {
  /** The package directory (real path, symlinks resolved). */
  readonly root: string;
  /** The package name (`@earendil-works/pi-coding-agent`). */
  readonly name: string;
  /** `version` of its package.json. */
  readonly version: string;
  /** The file its `pi` bin runs (the bundle, `dist/bundle/cli.js` in 1.6). */
  readonly bin: string;
  /** The unbundled entry point, `dist/cli.js`, which imports the session manager by path. */
  readonly cli: string;
  /** The module every part of pi imports `SessionManager` from. */
  readonly sessionManager: string;
}

/** Why no pi package was found, as one line for stderr. */
export class PiNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PiNotFoundError";
  }
}

/** Package names pi has been published under; the bin named `pi` decides either way. */
const PI_NAMES = new Set(["@earendil-works/pi-coding-agent", "@mariozechner/pi-coding-agent"]);

interface PackageJson {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly bin?: unknown;
}

function readPackageJson(dir: string): PackageJson | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
  } catch {
    return undefined;
  }
}

/** The file a package.json's `pi` bin names, or undefined when it has none. */
function piBinOf(json: PackageJson): string | undefined {
  const bin = json.bin;
  if (typeof bin === "string") return PI_NAMES.has(String(json.name)) ? bin : undefined;
  if (typeof bin === "object" && bin !== null) {
    const pi = (bin as Record<string, unknown>).pi;
    return typeof pi === "string" ? pi : undefined;
  }
  return undefined;
}

/**
 * The pi package that holds `path` (a file or directory): the nearest directory at or above its
 * real path whose package.json declares a `pi` bin. Undefined when there is none.
 */
export function piPackageOf(path: string): PiPackage | undefined {
  let dir: string;
  try {
    const real = realpathSync(path);
    dir = statSync(real).isDirectory() ? real : dirname(real);
  } catch {
    return undefined;
  }
  for (;;) {
    const json = existsSync(join(dir, "package.json")) ? readPackageJson(dir) : undefined;
    const bin = json && piBinOf(json);
    if (json && bin !== undefined) {
      return {
        root: dir,
        name: String(json.name),
        version: typeof json.version === "string" ? json.version : "unknown",
        bin: resolve(dir, bin),
        cli: join(dir, "dist", "cli.js"),
        sessionManager: join(dir, "dist", "core", "session-manager.js"),
      };
    }
    // A package.json without a pi bin ends the walk: pi's files never sit in another package.
    if (json) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The script a package manager's shell shim runs (pnpm's and npm's `pi` on some installs is a
 * `/bin/sh` script, not a symlink): pnpm names it in a `cmd-shim-target=` comment, npm's shims
 * run `"$basedir/<path>.js"`. Undefined when `path` is no such shim.
 */
export function shimTarget(path: string): string | undefined {
  let text: string;
  try {
    if (statSync(path).size > 64 * 1024) return undefined;
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  if (!text.startsWith("#!")) return undefined;
  const pnpm = /^# cmd-shim-target=(.+)$/m.exec(text)?.[1];
  if (pnpm !== undefined) return pnpm.trim();
  const npm = /"\$basedir\/([^"]+\.m?js)"/.exec(text)?.[1];
  return npm === undefined ? undefined : resolve(dirname(realpathSync(path)), npm);
}

/** The first executable `pi` on `pathValue` (a `PATH` string), or undefined. */
export function whichPi(pathValue: string | undefined, cwd: string): string | undefined {
  for (const dir of (pathValue ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = resolve(cwd, dir, "pi");
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** Where to look for pi: `--pi`, else `PI_SESSIONS_PI`, else `pi` on `PATH`. */
export interface FindPiOptions {
  /** The `--pi` argument, when given. */
  readonly option?: string;
  readonly env: NodeJS.ProcessEnv;
  /** Relative paths resolve against it. */
  readonly cwd: string;
}

/**
 * The pi package to run, or a {@link PiNotFoundError} saying where it looked. A path that is
 * not inside a pi package (a shell wrapper, say) is named in the error with the way out.
 */
export function findPi(options: FindPiOptions): PiPackage {
  const named = options.option ?? options.env[PI_PATH_ENV];
  const source = options.option !== undefined ? "--pi" : named !== undefined ? PI_PATH_ENV : "PATH";
  const path =
    named !== undefined && named !== ""
      ? isAbsolute(named)
        ? named
        : resolve(options.cwd, named)
      : whichPi(options.env.PATH, options.cwd);
  if (path === undefined) {
    throw new PiNotFoundError(
      `no \`pi\` command on PATH; install pi (npm install -g @earendil-works/pi-coding-agent@${TESTED_PI_VERSIONS}) or name it with --pi PATH or ${PI_PATH_ENV}`,
    );
  }
  const shim = piPackageOf(path) === undefined ? shimTarget(path) : undefined;
  const pi = piPackageOf(shim ?? path);
  if (pi === undefined) {
    throw new PiNotFoundError(
      `${path} (from ${source}) is not inside a pi package; name pi's package directory with --pi PATH or ${PI_PATH_ENV}`,
    );
  }
  return pi;
}
