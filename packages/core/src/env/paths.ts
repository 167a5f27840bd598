import { homedir } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Resolves a working directory as the reference does (SPEC §1.2 step 1): `~` and `~/…`
 * expand to the home directory, a `file://` URL becomes its path, a relative path resolves
 * against the process cwd, and the result is normalised without a trailing separator.
 */
export function resolveCwd(cwd: string): string {
  let p = cwd;
  if (p === "~") p = homedir();
  else if (p.startsWith("~/") || p.startsWith("~\\")) p = homedir() + p.slice(1);
  else if (p.startsWith("file://")) p = fileURLToPath(p);
  return resolve(p);
}
