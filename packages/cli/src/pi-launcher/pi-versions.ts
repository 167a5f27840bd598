/**
 * The pi versions the launcher swaps (SPEC L2): its own file so that both the version check
 * (`pi-support.ts`) and the "no pi" hint (`pi-package.ts`) name them without importing each
 * other.
 */

/** The pi versions the test suite runs through the launcher (`1.6.x`). */
export const TESTED_PI_VERSIONS = "1.6.x";

/** Whether pi `version` is one the test suite runs (a 1.6 release, pre-releases excluded). */
export function isTestedPiVersion(version: string): boolean {
  return /^1\.6\.\d+$/.test(version);
}
