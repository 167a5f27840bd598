/**
 * Random sessions folders and the changes that happen to them between two listings, for the
 * property tests: session files of every kind the listing meets (valid, damaged, legacy,
 * headerless, garbage, empty), and steps that grow, tear, complete, shrink, replace (also with
 * the same size and mtime), delete and add files.
 */

import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  damagedSessionArb,
  garbageLineArb,
  legacySessionArb,
  sessionLogArb,
} from "@pi-sessions/testkit";
import fc from "fast-check";

/** The text of one session file of any kind. */
export const fileTextArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: sessionLogArb({ maxEntries: 12 }).map((log) => log.jsonl) },
  { weight: 2, arbitrary: damagedSessionArb({ maxEntries: 10 }).map((s) => s.jsonl) },
  {
    weight: 1,
    arbitrary: legacySessionArb({ maxEntries: 8, garbageLines: true }).map((s) => s.jsonl),
  },
  { weight: 1, arbitrary: fc.constantFrom("", "not json\n", '{"type":"message","id":"x"}\n') },
);

/** Lines to append: entries of another session (so ids may collide), garbage, a torn piece. */
export const appendArb: fc.Arbitrary<string> = fc.oneof(
  sessionLogArb({ minEntries: 1, maxEntries: 6 }).map((log) =>
    log.jsonl.slice(log.jsonl.indexOf("\n") + 1),
  ),
  garbageLineArb.map((line) => `${line}\n`),
  sessionLogArb({ minEntries: 1, maxEntries: 2 }).map((log) => {
    const body = log.jsonl.slice(log.jsonl.indexOf("\n") + 1);
    return body.slice(0, Math.max(1, body.length - 7)); // torn: no final newline
  }),
);

/** One change to the folder; `file` picks among the files there are (modulo their number). */
export type Step =
  | { readonly kind: "append"; readonly file: number; readonly text: string }
  | { readonly kind: "truncate"; readonly file: number; readonly keep: number }
  | { readonly kind: "replace"; readonly file: number; readonly text: string }
  | { readonly kind: "same-stamp"; readonly file: number }
  | { readonly kind: "same-stamp-middle"; readonly file: number }
  | { readonly kind: "touch"; readonly file: number }
  | { readonly kind: "delete"; readonly file: number }
  | { readonly kind: "add"; readonly dir: number; readonly text: string };

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("append" as const), file: fc.nat(), text: appendArb }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("truncate" as const),
      file: fc.nat(),
      keep: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("replace" as const),
      file: fc.nat(),
      text: fileTextArb,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("same-stamp" as const), file: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("same-stamp-middle" as const), file: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("touch" as const), file: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), file: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("add" as const), dir: fc.nat(), text: fileTextArb }),
  },
);

/** Project directory names (cwd-encoded, as pi names them). */
export const DIRS = ["--work-a--", "--work-b--"] as const;

/**
 * Every write gives the file a whole-second mtime of its own (step `n`): listings order by
 * mtime, and a whole second can be given back exactly by `same-stamp`.
 */
function stamp(path: string, n: number): void {
  const seconds = 1_700_000_000 + n;
  utimesSync(path, seconds, seconds);
}

/** Writes the initial files, `texts[i]` into `DIRS[i % 2]`; returns their paths. */
export function writeFolder(root: string, texts: readonly string[]): string[] {
  for (const dir of DIRS) mkdirSync(join(root, dir), { recursive: true });
  return texts.map((text, i) => {
    const path = join(root, DIRS[i % DIRS.length] as string, `s${i}.jsonl`);
    writeFileSync(path, text);
    stamp(path, i);
    return path;
  });
}

/**
 * Applies a step to the folder and returns the paths there are now. `same-stamp` rewrites a
 * file in place with other bytes of the same length and gives it back its mtime: only the
 * hash of the last indexed line can tell.
 */
export function applyStep(root: string, paths: string[], step: Step, n: number): string[] {
  if (step.kind === "add") {
    const path = join(root, DIRS[step.dir % DIRS.length] as string, `added${n}.jsonl`);
    writeFileSync(path, step.text);
    stamp(path, n);
    return [...paths, path];
  }
  const path = paths[step.file % Math.max(1, paths.length)];
  if (path === undefined) return paths;
  switch (step.kind) {
    case "append":
      appendFileSync(path, step.text);
      stamp(path, n);
      return paths;
    case "truncate":
      truncateSync(path, Math.floor(statSync(path).size * step.keep));
      stamp(path, n);
      return paths;
    case "replace":
      // Written beside it and renamed over it, as an atomic rewrite does: a new inode.
      writeFileSync(`${path}.tmp`, step.text);
      renameSync(`${path}.tmp`, path);
      stamp(path, n);
      return paths;
    case "same-stamp": {
      const seconds = statSync(path).mtimeMs / 1000; // a whole second, given by `stamp`
      writeFileSync(path, sameLengthOther(readFileSync(path, "utf8")));
      utimesSync(path, seconds, seconds);
      return paths;
    }
    case "same-stamp-middle": {
      // An earlier line changed in place, the last line and the mtime kept: only the ctime tells.
      const seconds = statSync(path).mtimeMs / 1000;
      writeFileSync(path, sameLengthOtherEarlier(readFileSync(path, "utf8")));
      utimesSync(path, seconds, seconds);
      return paths;
    }
    case "touch":
      stamp(path, n);
      return paths;
    case "delete":
      rmSync(path);
      return paths.filter((p) => p !== path);
  }
}

/**
 * The text with the characters of its last line but one changed (the header when there is no
 * other), its byte length and its last line kept.
 */
function sameLengthOtherEarlier(text: string): string {
  const lines = text.split("\n");
  // The last line with content is the one kept; the one before it is changed.
  let last = lines.length - 1;
  while (last > 0 && lines[last] === "") last--;
  const at = Math.max(0, last - 1);
  if (at === last) return text;
  lines[at] = (lines[at] as string).replace(/[a-z]/g, (c) => (c === "z" ? "y" : "z"));
  return lines.join("\n");
}

/** The text with its last line's characters changed but its byte length kept. */
function sameLengthOther(text: string): string {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const start = body.lastIndexOf("\n") + 1;
  const last = body.slice(start).replace(/[a-z]/g, (c) => (c === "z" ? "y" : "z"));
  return `${body.slice(0, start)}${last}${text.endsWith("\n") ? "\n" : ""}`;
}
