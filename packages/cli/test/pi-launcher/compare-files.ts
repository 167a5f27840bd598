/**
 * Compares what the two sides left on disk: every file under their sessions directory and
 * export directory, line by line after normalisation (roots, session and entry ids numbered by
 * first appearance, times erased: these runs use the real clock), and each path's mode. The
 * differences SPEC §12 [Fix] rows allow (L4) are named by {@link fixRowOf}; anything else fails.
 */

import { existsSync, readFileSync, statSync } from "node:fs";
import { relative } from "node:path";
import {
  diffLines,
  fileModeOf,
  type LineDifference,
  walkTree,
} from "@pi-sessions/test-utils/pi-file-diff";
import { entryIdsOf, SideNormaliser } from "@pi-sessions/test-utils/pi-normalise";
import type { PiSide } from "./pi-sides.js";

/** One way the sides' files differ (paths normalised, relative to the side's root). */
export type FileDifference =
  | { readonly kind: "mode"; readonly path: string; readonly pi: string; readonly ours: string }
  | { readonly kind: "only"; readonly side: "pi" | "ours"; readonly path: string }
  | ({ readonly kind: "line"; readonly path: string } & LineDifference);

/**
 * A file's text for comparison: an HTML export carries the session as base64 JSON, which is
 * decoded first (so its ids and times are normalised like the files'), one record a line.
 */
function readForComparison(path: string): string {
  const text = readFileSync(path, "utf8");
  if (!path.endsWith(".html")) return text;
  return text.replace(
    /(<script id="session-data" type="application\/json">)([A-Za-z0-9+/=]+)(<\/script>)/,
    (_m, open: string, data: string, close: string) => {
      const session = JSON.parse(Buffer.from(data, "base64").toString("utf8")) as {
        header: unknown;
        entries: unknown[];
      } & Record<string, unknown>;
      const { header, entries, ...rest } = session;
      const records = [header, ...entries, rest].map((r) => JSON.stringify(r));
      return `${open}\n${records.join("\n")}\n${close}`;
    },
  );
}

/** A side's files, normalised: path → lines (directories have none) and mode. */
type NormalisedFiles = Map<string, { readonly lines?: string[]; readonly mode: string }>;

/**
 * The files of a side in a fixed order (directory walk: names sort by their timestamp prefix,
 * so by creation), normalised with one numbering over all of them, extra texts (RPC answers,
 * stdout) last.
 */
export function normaliseSide(
  side: PiSide,
  extra: readonly string[] = [],
): { files: NormalisedFiles; extra: string[] } {
  const roots = [side.sessionsDir, side.exportDir].filter((d) => existsSync(d));
  const paths = roots.flatMap((d) => walkTree(d));
  const isFile = (p: string) => statSync(p).isFile();
  const ids = new Set<string>();
  const texts = new Map(paths.filter(isFile).map((p) => [p, readForComparison(p)]));
  for (const text of texts.values()) for (const id of entryIdsOf(text)) ids.add(id);
  const n = new SideNormaliser(side.root, ids, "erased");
  const files: NormalisedFiles = new Map();
  for (const p of paths) {
    const lines = texts
      .get(p)
      ?.split("\n")
      .map((l) => n.text(l));
    files.set(n.text(relative(side.root, p)), { ...(lines ? { lines } : {}), mode: fileModeOf(p) });
  }
  return { files, extra: extra.map((t) => n.text(t)) };
}

/** Every difference between the two sides' normalised files. */
export function compareFiles(pi: NormalisedFiles, ours: NormalisedFiles): FileDifference[] {
  const out: FileDifference[] = [];
  for (const [path, a] of pi) {
    const b = ours.get(path);
    if (!b) {
      out.push({ kind: "only", side: "pi", path });
      continue;
    }
    if (a.mode !== b.mode) out.push({ kind: "mode", path, pi: a.mode, ours: b.mode });
    if (a.lines && b.lines)
      for (const d of diffLines(a.lines, b.lines)) out.push({ kind: "line", path, ...d });
  }
  for (const path of ours.keys()) if (!pi.has(path)) out.push({ kind: "only", side: "ours", path });
  return out;
}

/**
 * The SPEC §12 [Fix] row that allows a difference (L4), or undefined. W22: ours makes session
 * files 0600 and directories 0700, where pi leaves the umask's 0644 and 0755.
 */
export function fixRowOf(d: FileDifference): "W22" | undefined {
  if (d.kind !== "mode") return undefined;
  return d.ours === (d.path.endsWith(".jsonl") ? "600" : "700") ? "W22" : undefined;
}

/** A line cut for a failure report (the whole system prompt helps no one). */
const cut = (text: string | undefined) =>
  text === undefined || text.length <= 400 ? text : `${text.slice(0, 400)}… (${text.length} chars)`;

/** The differences no [Fix] row allows, and the rows that showed (for the report). */
export function judge(differences: readonly FileDifference[]): {
  unexplained: FileDifference[];
  rows: Set<string>;
} {
  const rows = new Set<string>();
  const unexplained: FileDifference[] = [];
  for (const d of differences) {
    const row = fixRowOf(d);
    if (row) rows.add(row);
    else unexplained.push(d.kind === "line" ? { ...d, pi: cut(d.pi), ours: cut(d.ours) } : d);
  }
  return { unexplained, rows };
}

/** The session files of a side, in creation order (names start with their timestamp). */
export function sessionFilesOf(side: PiSide): string[] {
  return walkTree(side.sessionsDir)
    .filter((p) => p.endsWith(".jsonl"))
    .sort((a, b) => (a.split("/").at(-1) ?? "").localeCompare(b.split("/").at(-1) ?? ""));
}
