import { homedir } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** A working directory resolved as the reference does (SPEC §1.2 step 1), `~` and `file://` too. */
export function resolveCwd(cwd: string): string {
  if (cwd === "~") return resolve(homedir());
  if (cwd.startsWith("~/") || cwd.startsWith("~\\")) return resolve(homedir() + cwd.slice(1));
  return resolve(cwd.startsWith("file://") ? fileURLToPath(cwd) : cwd);
}
