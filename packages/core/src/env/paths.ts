import { homedir } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Resolves a working directory as the reference does (SPEC §1.2 step 1): `~` and `~/…` expand
 * to the home directory, a `file://` URL becomes its path, a relative path resolves against
 * the process cwd, and the result is normalised without a trailing separator.
 */
export function resolveCwd(cwd: string): string {
  if (cwd === "~") return resolve(homedir());
  if (cwd.startsWith("~/") || cwd.startsWith("~\\")) return resolve(homedir() + cwd.slice(1));
  return resolve(cwd.startsWith("file://") ? fileURLToPath(cwd) : cwd);
}
