/** What the fault tests share: a small sessions folder, direct listings, a folder snapshot. */

import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { defaultSessionInfoCache } from "@pi-sessions/core/internal";
import { corpusFile, tempDir } from "@pi-sessions/test-utils";
import { sessionText } from "./session-text.js";

/** A sessions root with corpus sessions, hand-made ones and a damaged file, in two projects. */
export function sessionsFolder(): string {
  const root = join(tempDir(), "sessions");
  const a = join(root, "--a--");
  const b = join(root, "--b--");
  mkdirSync(a, { recursive: true });
  mkdirSync(b);
  copyFileSync(corpusFile("large-session.jsonl"), join(a, "large.jsonl"));
  copyFileSync(corpusFile("ref-1.6-branched.jsonl"), join(b, "branched.jsonl"));
  writeFileSync(
    join(b, "small.jsonl"),
    sessionText("33333333", "/work/b", [{ user: "hello there" }, { assistant: "hi" }]),
  );
  writeFileSync(
    join(b, "damaged.jsonl"),
    `${sessionText("44444444", "/work/b", [{ user: "x" }])}garbage\n{"type":"mess`,
  );
  return root;
}

/** Core's `listAll(dir)` for every project of `root`, read from the files (no cache). */
export async function directListing(root: string) {
  defaultSessionInfoCache.clear();
  const out = [];
  for (const dir of readdirSync(root).sort())
    out.push(...(await SessionManager.listAll(join(root, dir))));
  return out;
}

/** The same through an index. */
export async function indexListing(
  index: { listAll(dir: string): Promise<unknown[]> },
  root: string,
) {
  const out = [];
  for (const dir of readdirSync(root).sort()) out.push(...(await index.listAll(join(root, dir))));
  return out;
}

/** Every file under `root` with its bytes and mtime: a listing must leave this unchanged. */
export function snapshot(root: string): Record<string, { bytes: string; mtimeMs: number }> {
  const out: Record<string, { bytes: string; mtimeMs: number }> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[path] = { bytes: readFileSync(path, "base64"), mtimeMs: statSync(path).mtimeMs };
    }
  };
  walk(root);
  return out;
}
