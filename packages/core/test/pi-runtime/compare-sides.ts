/**
 * Compares what the two sides of the pi-runtime test left on disk and listed: every file
 * under `agent/sessions` and `export` (content line by line after normalise.ts, and mode),
 * and the `list()` / `listAll()` results. Returns the differences; which of them are allowed
 * is decided by fix-rows.ts.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { diffLines, fileModeOf, walkTree } from "@pi-sessions/test-utils/pi-file-diff";
import { entryIdsOf, SideNormaliser } from "@pi-sessions/test-utils/pi-normalise";
import type { Side } from "./child-env.js";
import type { SideLog } from "./run-side.js";

/** One way the sides differ. Paths are normalised and relative to the side's root. */
export type Difference =
  | { kind: "mode"; path: string; pi: string; ours: string }
  | { kind: "only"; side: Side; path: string }
  /** A path present at the end of the flow (before the runtime was disposed) on one side only. */
  | { kind: "listing"; side: Side; path: string }
  | {
      kind: "line";
      path: string;
      line: number;
      /** JSON path of the first differing value. */
      field: string;
      pi?: string;
      ours?: string;
      /** When the lines differ in `parentId` only: both parents and the line before. */
      parents?: ParentsOnly;
    }
  | { kind: "list"; which: "list" | "listAll"; index: number; pi?: string; ours?: string };

/** A side's output after normalisation. */
interface NormalisedSide {
  /** Normalised path → normalised lines (undefined for directories). */
  readonly files: Map<string, { lines?: string[]; mode: string }>;
  readonly listing: Set<string>;
  readonly list: string[];
  readonly listAll: string[];
}

/** What was compared, for the test's report. */
export interface Comparison {
  readonly differences: Difference[];
  readonly files: number;
  readonly lines: number;
}

/** Sorted like pi's list (newest first), ties by normalised path (pi leaves them to readdir). */
function normaliseInfos(infos: Record<string, unknown>[], n: SideNormaliser): string[] {
  return infos
    .map((info) => ({
      time: Date.parse(String(info.modified)),
      text: n.text(JSON.stringify(info)),
    }))
    .sort((a, b) => b.time - a.time || a.text.localeCompare(b.text))
    .map((i) => i.text);
}

function normaliseSide(log: SideLog): NormalisedSide {
  const dirs = [join(log.root, "agent", "sessions"), join(log.root, "export")];
  const all = dirs.filter((d) => existsSync(d)).flatMap((d) => [d, ...walkTree(d)]);
  const isFile = (p: string) => statSync(p, { throwIfNoEntry: false })?.isFile() === true;
  // Numbering follows the runtime: its session files first, in the order it reached them.
  const ordered = [...new Set([...log.sessionFiles, ...log.extraFiles, ...all])].filter(
    (p) => isFile(p) || all.includes(p),
  );
  const ids = new Set<string>();
  for (const p of ordered)
    if (isFile(p)) for (const id of entryIdsOf(readFileSync(p, "utf8"))) ids.add(id);
  const n = new SideNormaliser(log.root, ids);
  const files = new Map<string, { lines?: string[]; mode: string }>();
  for (const p of ordered) {
    const path = n.text(relative(log.root, p));
    const lines = isFile(p)
      ? readFileSync(p, "utf8")
          .split("\n")
          .map((l) => n.text(l))
      : undefined;
    files.set(path, { ...(lines ? { lines } : {}), mode: fileModeOf(p) });
  }
  return {
    files,
    listing: new Set(log.listing.map((p) => n.text(p))),
    list: normaliseInfos(log.list, n),
    listAll: normaliseInfos(log.listAll, n),
  };
}

/** Two entry lines that differ in `parentId` alone: both parents, and the line before them. */
export interface ParentsOnly {
  readonly pi: unknown;
  readonly ours: unknown;
  /** The (normalised) record on the line before, which both sides have in common. */
  readonly previous: Readonly<Record<string, unknown>> | undefined;
}

/** Both parents, when lines `a` and `b` are entries that differ in `parentId` alone. */
function parentsOnly(
  a: string | undefined,
  b: string | undefined,
  previous: string | undefined,
): ParentsOnly | undefined {
  try {
    const x = JSON.parse(a ?? "") as Record<string, unknown>;
    const y = JSON.parse(b ?? "") as Record<string, unknown>;
    const without = (r: Record<string, unknown>) => JSON.stringify({ ...r, parentId: null });
    if (without(x) !== without(y)) return undefined;
    const before =
      previous === undefined ? undefined : (JSON.parse(previous) as Record<string, unknown>);
    return { pi: x.parentId, ours: y.parentId, previous: before };
  } catch {
    return undefined;
  }
}

/** Compares the two sides' outputs (see the module comment). */
export function compareSides(piLog: SideLog, oursLog: SideLog): Comparison {
  const pi = normaliseSide(piLog);
  const ours = normaliseSide(oursLog);
  const differences: Difference[] = [];
  let lines = 0;
  for (const [path, a] of pi.files) {
    const b = ours.files.get(path);
    if (!b) {
      differences.push({ kind: "only", side: "pi", path });
      continue;
    }
    if (a.mode !== b.mode) differences.push({ kind: "mode", path, pi: a.mode, ours: b.mode });
    if (!a.lines || !b.lines) continue;
    lines += Math.max(a.lines.length, b.lines.length);
    for (const d of diffLines(a.lines, b.lines)) {
      const previous = b.lines[d.line - 2];
      const parents = d.field === "$.parentId" ? parentsOnly(d.pi, d.ours, previous) : undefined;
      differences.push({ kind: "line", path, ...d, ...(parents ? { parents } : {}) });
    }
  }
  for (const path of ours.files.keys()) {
    if (!pi.files.has(path)) differences.push({ kind: "only", side: "ours", path });
  }
  for (const [side, a, b] of [
    ["pi", pi.listing, ours.listing],
    ["ours", ours.listing, pi.listing],
  ] as const) {
    for (const path of a) if (!b.has(path)) differences.push({ kind: "listing", side, path });
  }
  for (const which of ["list", "listAll"] as const) {
    const [a, b] = [pi[which], ours[which]];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] !== b[i]) differences.push({ kind: "list", which, index: i, pi: a[i], ours: b[i] });
    }
  }
  return { differences, files: pi.files.size, lines };
}
