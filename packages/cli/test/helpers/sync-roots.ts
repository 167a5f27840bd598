/**
 * Two sessions roots for `sync` tests: diverged copies of sessions written where pi keeps them
 * (`--<cwd>--/<timestamp>_<id>.jsonl`), and what a root holds afterwards.
 */

import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseSessionEntries, type SessionHeader } from "@pi-sessions/core";
import { encodeResolvedCwd, sessionFileName } from "@pi-sessions/core/internal";

/** Where pi keeps a session of this header under a root (relative path). */
export function sessionPath(header: SessionHeader): string {
  return `${encodeResolvedCwd(header.cwd)}/${sessionFileName(header.timestamp, header.id)}`;
}

/** Writes `text` at `rel` under `root`. */
export function writeSession(root: string, rel: string, text: string | Buffer): string {
  const path = join(root, rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** Every file under a root's session folders, relative path → bytes (lock and temp files too). */
export function filesUnder(root: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const dir of readdirSync(root)) {
    if (!statSync(join(root, dir)).isDirectory()) continue;
    for (const file of readdirSync(join(root, dir))) {
      out.set(`${dir}/${file}`, readFileSync(join(root, dir, file)));
    }
  }
  return out;
}

/** The entry ids of a session file's text. */
export function entryIds(bytes: Buffer): string[] {
  return parseSessionEntries(bytes.toString())
    .slice(1)
    .map((r) => (r as { id: string }).id);
}
