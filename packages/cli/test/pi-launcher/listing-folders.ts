/**
 * Session folders for the launcher's listing tests: files our manager writes, some damaged
 * (cut mid-line, garbage lines, no header, empty), in two project directories, and changes
 * between listings (a turn appended, a torn line another pi is still writing, a deleted
 * file, a new one). Both listings compared must agree on each state.
 */

import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import fc from "fast-check";

/** The two projects' working directories. */
export const CWDS = ["/work/a", "/work/b"] as const;

/** One file of a folder. */
export interface FileSpec {
  readonly cwd: 0 | 1;
  readonly kind: "valid" | "cut" | "garbage" | "headerless" | "empty";
  readonly turns: number;
  readonly seed: number;
}

/** One change between listings. */
export type Change =
  | { readonly op: "grow"; readonly pick: number }
  | { readonly op: "torn"; readonly pick: number }
  | { readonly op: "delete"; readonly pick: number }
  | { readonly op: "add"; readonly file: FileSpec };

export const fileSpecArb: fc.Arbitrary<FileSpec> = fc.record({
  cwd: fc.constantFrom(0 as const, 1 as const),
  kind: fc.constantFrom("valid", "valid", "valid", "cut", "garbage", "headerless", "empty"),
  turns: fc.integer({ min: 1, max: 4 }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
});

export const changeArb: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ op: fc.constant("grow" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("torn" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("delete" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("add" as const), file: fileSpecArb }),
);

/** Writes one file into `root` as `spec` says; returns its path. */
export function writeFile(root: string, spec: FileSpec, n: number): string {
  const cwd = CWDS[spec.cwd];
  const dir = join(root, `--${cwd.slice(1).replaceAll("/", "-")}--`);
  mkdirSync(dir, { recursive: true });
  const sm = SessionManager.create(cwd, dir, {
    // `n` is below 100 in every test, so no two files share a seed (seed + n made 15 + 0 and
    // 14 + 1 the same session id, and the second create refused to overwrite the first's file).
    env: createDeterministicEnv({ seed: spec.seed * 100 + n }),
  });
  for (let t = 0; t < spec.turns; t++) {
    sm.appendMessage({
      role: "user",
      content: `question ${n}.${t}`,
      timestamp: 1000 * (n + 1) + t,
    });
  }
  sm.close();
  const path = sm.getSessionFile() as string;
  const text = readFileSync(path, "utf8");
  if (spec.kind === "cut") writeFileSync(path, text.slice(0, text.length - 7));
  if (spec.kind === "garbage") appendFileSync(path, "garbage line\n[1,2]\n");
  if (spec.kind === "headerless") writeFileSync(path, text.slice(text.indexOf("\n") + 1));
  if (spec.kind === "empty") writeFileSync(path, "");
  return path;
}

/** Applies a change; returns the folder's files after it. */
export function applyChange(root: string, files: string[], change: Change, n: number): string[] {
  if (change.op === "add") return [...files, writeFile(root, change.file, n)];
  if (files.length === 0) return files;
  const path = files[change.pick % files.length] as string;
  if (change.op === "delete") {
    rmSync(path, { force: true });
    return files.filter((f) => f !== path);
  }
  const entry = {
    type: "message",
    id: `g${n}`,
    parentId: null,
    timestamp: "2026-01-01T00:00:00.000Z",
  };
  const message = {
    role: "assistant",
    content: [{ type: "text", text: `grown ${n}` }],
    timestamp: 5000 + n,
  };
  const line = JSON.stringify({ ...entry, message });
  appendFileSync(path, change.op === "grow" ? `${line}\n` : line.slice(0, 40));
  return files;
}
