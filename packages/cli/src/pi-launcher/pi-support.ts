/**
 * Which pi runs on our engine, and on which Node: only versions the test suite runs are
 * swapped (SPEC L2), and pi 1.6 needs Node 22.19 or newer. Each refusal is one line for
 * stderr saying what happens instead and how to proceed.
 */

import type { PiPackage } from "./pi-package.js";
import { isTestedPiVersion, TESTED_PI_VERSIONS } from "./pi-versions.js";

/** The oldest Node pi 1.6 runs on (its `engines` field). */
export const MIN_PI_NODE = [22, 19] as const;

/** Whether Node `version` (`process.versions.node`) is new enough for pi. */
export function isNodeNewEnough(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [wantMajor, wantMinor] = MIN_PI_NODE;
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}

/** The line said when Node is too old for pi. */
export function oldNodeLine(version: string, execPath: string): string {
  const [major, minor] = MIN_PI_NODE;
  return `pi-sessions: pi needs Node >= ${major}.${minor}, this is Node ${version} (${execPath}); run pi-sessions with a newer node`;
}

/** The line said when pi's version is not one we test: it runs as it is. */
export function untestedVersionLine(pi: PiPackage): string {
  return `pi-sessions: pi ${pi.version} is not a version pi-sessions has tested (${TESTED_PI_VERSIONS}); running it unchanged on its own session manager (install pi ${TESTED_PI_VERSIONS}, or upgrade pi-sessions, to use ours)`;
}

/** The line said when a pi file the swap needs is missing: pi runs as it is. */
export function missingFileLine(pi: PiPackage, file: string): string {
  return `pi-sessions: pi ${pi.version} at ${pi.root} has no ${file}; running it unchanged on its own session manager`;
}

/**
 * Why pi cannot be swapped, as the one line to say (undefined when it can): an untested
 * version, or a missing unbundled entry or session-manager module. Never half-swapped.
 */
export function swapRefusal(pi: PiPackage, exists: (path: string) => boolean): string | undefined {
  if (!isTestedPiVersion(pi.version)) return untestedVersionLine(pi);
  for (const file of [pi.cli, pi.sessionManager]) {
    if (!exists(file)) return missingFileLine(pi, file.slice(pi.root.length + 1));
  }
  return undefined;
}
