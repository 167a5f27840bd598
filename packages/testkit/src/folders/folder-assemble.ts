/**
 * Builds a {@link SessionFolder} from its generated parts (pure, so fast-check shrinks the parts
 * and a seed replays the folder): sessions first, odd values planted into their records, then
 * forks, branched sessions and copies made from earlier files, then the damaged and legacy
 * files, then byte-order marks.
 */
import type { SessionHeader } from "@pi-sessions/core";
import { encodeResolvedCwd, sessionFileName } from "@pi-sessions/core/internal";
import { isoFromMs } from "../arbitraries/common.js";
import type { DamagedSession } from "../arbitraries/damage-types.js";
import { toJsonl } from "../arbitraries/jsonl.js";
import type { LegacySession } from "../arbitraries/legacy.js";
import { buildLogEntries, type LogStep } from "../arbitraries/session-log.js";
import { branchedRecords, forkRecords } from "./derived-files.js";
import type {
  DerivedKind,
  FolderFile,
  FolderFileKind,
  FolderRecord,
  ParentLink,
  SessionFolder,
} from "./folder-types.js";
import { SESSIONS_ROOT } from "./folder-types.js";
import type { DraftRecord, HostileValueName, HostileValueSpec } from "./hostile-values.js";
import { markShownValues, plantValues } from "./plant-values.js";
import { SessionIds } from "./session-ids.js";

/** A session as generated: its header, its cwd (an index into the folder's cwds), its steps. */
export interface SessionPart {
  readonly header: SessionHeader;
  readonly cwd: number;
  readonly steps: readonly LogStep[];
}

/** A file to make from an earlier one. */
export interface DerivedPart {
  readonly kind: DerivedKind;
  /** The file it is made from, modulo the files made so far. */
  readonly source: number;
  /** The target cwd (fork) or second folder (copy), modulo the folder's cwds. */
  readonly cwd: number;
  /** Milliseconds between the source's header and the new one. */
  readonly delay: number;
  /** The entry to branch at (branched), modulo the source's ids. */
  readonly leaf: number;
  readonly link: ParentLink;
  readonly id: string;
}

/** Everything {@link assembleFolder} builds a folder from. */
export interface FolderParts {
  readonly cwds: readonly string[];
  readonly salt: number;
  readonly sessions: readonly SessionPart[];
  readonly derived: readonly DerivedPart[];
  readonly damaged: DamagedSession | null;
  readonly legacy: LegacySession | null;
  readonly values: readonly HostileValueSpec[];
  readonly longLineLength: number;
}

/** A file while the folder is built. */
interface Draft {
  path: string;
  kind: FolderFileKind;
  header: Record<string, unknown> | null;
  records: DraftRecord[];
  text?: string;
  source?: string;
  ancestors: string[];
  parentLink?: ParentLink;
  branchedAt?: string;
  values: Set<HostileValueName>;
  deleted?: boolean;
}

/** Where a moved sessions root used to be: `parentSession` still names it. */
const MOVED_ROOT = "/home/before-the-move/.pi/agent/sessions";

function folderOf(cwd: unknown): string {
  return encodeResolvedCwd(typeof cwd === "string" && cwd !== "" ? cwd : "/");
}

function fileNameOf(header: Record<string, unknown> | null, fallback: string): string {
  const ts = header?.timestamp;
  const id = header?.id;
  return typeof ts === "string" && typeof id === "string" ? sessionFileName(ts, id) : fallback;
}

function sessionDrafts(parts: FolderParts, ids: SessionIds): Draft[] {
  let offset = 0;
  const drafts = parts.sessions.map((s): Draft => {
    const cwd = parts.cwds[s.cwd % parts.cwds.length] as string;
    const header = {
      type: "session",
      version: 3,
      id: ids.claim(s.header.id),
      timestamp: s.header.timestamp,
      cwd,
    };
    const path = `${folderOf(cwd)}/${fileNameOf(header, "session.jsonl")}`;
    // One salt range per session, so entry ids are unique across the whole folder.
    const entries = buildLogEntries(s.steps, Date.parse(header.timestamp), parts.salt + offset);
    offset += s.steps.length;
    const records = entries.map((e, i) => ({
      entry: JSON.parse(JSON.stringify(e)) as Record<string, unknown>,
      origin: `${path}#${i}`,
    }));
    return { path, kind: "session", header, records, ancestors: [], values: new Set() };
  });
  // Two sessions with the same id and time would share a path: the later one is left out, so
  // nothing is ever made from a file the folder does not hold.
  return drafts.filter((d, i) => drafts.findIndex((o) => o.path === d.path) === i);
}

function headerMs(d: Draft): number {
  const ms = Date.parse(String(d.header?.timestamp));
  return Number.isNaN(ms) ? 0 : ms;
}

function derive(drafts: Draft[], parts: FolderParts, ids: SessionIds): void {
  for (const [n, part] of parts.derived.entries()) {
    if (drafts.length === 0) return;
    const src = drafts[part.source % drafts.length] as Draft;
    const cwd = parts.cwds[part.cwd % parts.cwds.length] as string;
    const timestamp = isoFromMs(headerMs(src) + part.delay);
    const parentSession =
      part.link === "moved" ? `${MOVED_ROOT}/${src.path}` : `${SESSIONS_ROOT}/${src.path}`;
    let draft: Draft;
    if (part.kind === "copy") {
      let folder = folderOf(cwd);
      if (folder === src.path.split("/")[0]) folder = folderOf(`${src.header?.cwd ?? ""}/copy`);
      draft = {
        ...src,
        path: `${folder}/${src.path.split("/")[1]}`,
        kind: "copy",
        records: forkRecords(src.records),
        source: src.path,
        ancestors: [src.path, ...src.ancestors],
        values: new Set(),
      };
      delete draft.deleted;
    } else {
      const srcCwd = typeof src.header?.cwd === "string" ? src.header.cwd : cwd;
      const header = {
        type: "session",
        version: 3,
        id: ids.claim(part.id),
        timestamp,
        cwd: part.kind === "fork" ? cwd : srcCwd,
        parentSession,
      };
      const folder = part.kind === "fork" ? folderOf(cwd) : src.path.split("/")[0];
      const path = `${folder}/${fileNameOf(header, "session.jsonl")}`;
      let records = forkRecords(src.records);
      let branchedAt: string | undefined;
      if (part.kind === "branched") {
        const ids = src.records.flatMap((r) =>
          typeof r.entry.id === "string" ? [r.entry.id] : [],
        );
        if (ids.length === 0) continue;
        branchedAt = ids[part.leaf % ids.length] as string;
        const built = branchedRecords(src.records, branchedAt, path, parts.salt ^ (0x5f3759df + n));
        if (!built.written) continue; // pi writes a branched file only once it holds a message
        records = built.records;
      }
      draft = {
        path,
        kind: part.kind,
        header,
        records,
        source: src.path,
        ancestors: [src.path, ...src.ancestors],
        parentLink: part.link,
        ...(branchedAt !== undefined ? { branchedAt } : {}),
        values: new Set(),
      };
      if (part.link === "deleted") src.deleted = true;
    }
    if (drafts.some((d) => d.path === draft.path)) continue;
    drafts.push(draft);
  }
  // A parent deleted after a fork of it was made no longer resolves for that fork either.
  const gone = new Set(drafts.filter((d) => d.deleted).map((d) => d.path));
  for (const d of drafts) {
    if (d.parentLink === "resolvable" && d.source !== undefined && gone.has(d.source)) {
      d.parentLink = "deleted";
    }
  }
}

function fromText(
  kind: "damaged" | "legacy",
  given: Record<string, unknown> | null,
  entries: readonly unknown[],
  givenText: string,
  fallbackName: string,
  ids: SessionIds,
): Draft {
  let header = given;
  let text = givenText;
  if (typeof given?.id === "string") {
    const id = ids.claim(given.id);
    if (id !== given.id) {
      header = { ...given, id };
      text = givenText.replace(JSON.stringify(given.id), JSON.stringify(id));
    }
  }
  const path = `${folderOf(header?.cwd)}/${fileNameOf(header, fallbackName)}`;
  const records = entries.map((e, i) => ({
    entry: e as Record<string, unknown>,
    origin: `${path}#${i}`,
  }));
  return { path, kind, header, records, text, ancestors: [], values: new Set() };
}

function finish(d: Draft): FolderFile {
  const records: FolderRecord[] = d.records.map((r) => ({ entry: r.entry, origin: r.origin }));
  const text = d.text ?? toJsonl([d.header, ...records.map((r) => r.entry)]);
  let leafId: string | null = null;
  for (const r of records) if (typeof r.entry.id === "string") leafId = r.entry.id;
  return {
    path: d.path,
    kind: d.kind,
    header: d.header,
    records,
    text,
    ...(d.source !== undefined ? { source: d.source } : {}),
    ancestors: d.ancestors,
    ...(d.parentLink !== undefined ? { parentLink: d.parentLink } : {}),
    ...(d.branchedAt !== undefined ? { branchedAt: d.branchedAt } : {}),
    leafId,
    values: [...d.values],
  };
}

/** The folder the parts describe (pure). */
export function assembleFolder(parts: FolderParts): SessionFolder {
  const ids = new SessionIds();
  const drafts = sessionDrafts(parts, ids);
  const planted = plantValues(drafts, parts.values, parts.longLineLength);
  derive(drafts, parts, ids);
  if (parts.damaged) {
    const d = parts.damaged;
    const header = d.header as unknown as Record<string, unknown>;
    drafts.push(fromText("damaged", header, d.entries, d.jsonl, "damaged.jsonl", ids));
  }
  if (parts.legacy) {
    const [header, ...entries] = parts.legacy.records;
    const legacy = parts.legacy.jsonl;
    drafts.push(fromText("legacy", header ?? null, entries, legacy, "legacy.jsonl", ids));
  }
  const present = drafts.filter(
    (d, i) => !d.deleted && drafts.findIndex((o) => o.path === d.path) === i,
  );
  markShownValues(present, planted);
  const files = present.map(finish);
  const withBom = new Set<number>();
  for (const spec of parts.values)
    if (spec.name === "bom" && files.length > 0) withBom.add(spec.at % files.length);
  const finalFiles = files.map((f, i) =>
    withBom.has(i) ? { ...f, text: `\uFEFF${f.text}`, values: [...f.values, "bom" as const] } : f,
  );
  const values = new Set<HostileValueName>();
  for (const f of finalFiles) for (const v of f.values) values.add(v);
  return {
    files: finalFiles,
    deleted: drafts.filter((d) => d.deleted).map((d) => d.path),
    values: [...values],
  };
}
