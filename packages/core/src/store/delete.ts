import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, statSync, unlinkSync } from "node:fs";
import { delimiter, join } from "node:path";
import { removeStaleLock } from "./lock.js";

/** How {@link deleteSessionFile} removed the file: by the `trash` command (recoverable) or not. */
export interface DeleteResult {
  readonly method: "trash" | "unlink";
}

/** Options of {@link deleteSessionFile}. */
export interface DeleteOptions {
  /** The trash command (default: `trash` on `PATH`), or `null` to go straight to unlink. */
  trashCommand?: string | null;
}

/** Windows looks up commands with these extensions; elsewhere the bare name is the file. */
const EXECUTABLE_EXTENSIONS =
  process.platform === "win32" ? (process.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";") : [""];

/** Finds `name` on `PATH` as an executable file, without a shell. */
export function findOnPath(
  name: string,
  pathEnv: string = process.env.PATH ?? "",
): string | undefined {
  for (const dir of pathEnv.split(delimiter)) {
    if (dir === "") continue;
    for (const ext of EXECUTABLE_EXTENSIONS) {
      const candidate = join(dir, name + ext);
      try {
        accessSync(candidate, constants.X_OK);
        if (statSync(candidate).isFile()) return candidate; // a directory is "executable" too
      } catch {
        // Not here; keep looking.
      }
    }
  }
  return undefined;
}

/** Runs the trash command on `path`; true if the file is gone afterwards (SPEC §1.6). */
function tryTrash(command: string, path: string): boolean {
  const result = spawnSync(command, [path], { stdio: "ignore", shell: false, timeout: 30_000 });
  // Like the reference's picker: a zero exit, or the file no longer being there, is success
  // (some trash tools report errors about unrelated things after moving the file).
  return result.status === 0 || !existsSync(path);
}

/**
 * Deletes a session file as the reference's session picker does (SPEC §1.6): the `trash`
 * command (recoverable), else `unlink`, whose error is thrown. A stale `<path>.lock` goes too;
 * a live one stays, and its holder's next append reports the deletion (W8).
 */
export function deleteSessionFile(path: string, options: DeleteOptions = {}): DeleteResult {
  const command = options.trashCommand === undefined ? findOnPath("trash") : options.trashCommand;
  const trashed = command !== null && command !== undefined && tryTrash(command, path);
  if (!trashed) unlinkSync(path);
  removeStaleLock(path);
  return { method: trashed ? "trash" : "unlink" };
}
