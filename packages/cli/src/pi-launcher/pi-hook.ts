/**
 * The `--import` module of the launcher, `@pi-sessions/cli/pi-hook`, for starting pi any way
 * one likes:
 *
 * ```sh
 * node --import @pi-sessions/cli/pi-hook "$(command -v pi)" [pi's arguments…]
 * ```
 *
 * `pi-sessions pi` starts pi exactly so. The entry point (`process.argv[1]`) must be a file of a
 * pi package: its bundled bin, or `dist/cli.js`. A pi whose version the test suite runs has its
 * session manager swapped for ours (swap-hooks.ts); any other pi, or a pi missing a file the
 * swap needs, runs unchanged after one line on stderr (SPEC L2: never half-swapped).
 *
 * @packageDocumentation
 */

import { existsSync } from "node:fs";
import { piPackageOf } from "./pi-package.js";
import { isNodeNewEnough, oldNodeLine, swapRefusal } from "./pi-support.js";
import { installSwap } from "./swap-hooks.js";

/** What the hook did, for the one line it may say. */
function hookPi(entry: string | undefined): string | undefined {
  if (!isNodeNewEnough(process.versions.node)) {
    return oldNodeLine(process.versions.node, process.execPath);
  }
  const pi = entry === undefined ? undefined : piPackageOf(entry);
  if (pi === undefined) {
    return `pi-sessions: ${entry ?? "(no entry point)"} is not a file of a pi package; nothing swapped`;
  }
  const refusal = swapRefusal(pi, existsSync);
  if (refusal === undefined) installSwap(pi);
  return refusal;
}

const line = hookPi(process.argv[1]);
if (line !== undefined) process.stderr.write(`${line}\n`);
