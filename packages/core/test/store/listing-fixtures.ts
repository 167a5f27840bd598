/**
 * Shared helpers of the listing and discovery tests: temp directories, session files written
 * line by line, a seeded generator of varied session files, the reference loaded as a black
 * box, and comparable forms of what both implementations return.
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeTempDir, tempDir } from "@pi-sessions/test-utils";
import { afterAll, beforeAll } from "vitest";
import type { SessionInfo } from "../../src/schema/types.js";

/** A line of a test file: an object (serialised) or raw text (written as it is). */
export type Line = object | string;

/** A fresh temp directory, removed when its test (or, made in beforeAll, its file) is done. */
export function makeTempDir(prefix: string): string {
  return tempDir(`pi-sessions-${prefix}-`);
}

/** Removes a directory tree before the temp dir's own cleanup would. */
export const removeDir = removeTempDir;

/** One test file's temp root and a new subdirectory of it per call. */
export interface TempDirs {
  /** The root, made before the file's tests and removed after them. */
  root: () => string;
  /** A path under the root not used before (created by whoever writes into it). */
  fresh: () => string;
}

/** Registers the file's temp root (beforeAll/afterAll) and hands out fresh directories in it. */
export function useTempDirs(prefix: string): TempDirs {
  let work = "";
  let sub = 0;
  beforeAll(() => {
    work = makeTempDir(prefix);
  });
  afterAll(() => removeDir(work));
  return { root: () => work, fresh: () => join(work, `d${sub++}`) };
}

/** Options of {@link writeLines}. */
export interface WriteOptions {
  /** mtime (and atime) in seconds since the epoch. */
  mtime?: number;
  /** Line ending; `\n` by default. */
  eol?: string;
  /** Whether the last line gets its line ending too (true by default). */
  trailingEol?: boolean;
}

/** Writes `lines` as a file `dir/name` (creating `dir`), returns its path. */
export function writeLines(
  dir: string,
  name: string,
  lines: Line[],
  options: WriteOptions = {},
): string {
  mkdirSync(dir, { recursive: true });
  const eol = options.eol ?? "\n";
  const body = lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join(eol);
  const path = join(dir, name);
  writeFileSync(path, lines.length > 0 && options.trailingEol !== false ? body + eol : body);
  if (options.mtime !== undefined) utimesSync(path, options.mtime, options.mtime);
  return path;
}

/** A v3 header. */
export function header(id: string, cwd: string | undefined, extra: object = {}): object {
  return { type: "session", version: 3, id, timestamp: "2024-03-01T10:00:00.000Z", cwd, ...extra };
}

/** A message entry with the given message fields. */
export function messageEntry(
  id: string,
  message: object,
  timestamp = "2024-03-02T10:00:00.000Z",
): object {
  return { type: "message", id, parentId: null, timestamp, message };
}

/** A seeded PRNG (mulberry32): the same seed gives the same files on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What {@link generateSessions} made. */
export interface GeneratedFile {
  readonly path: string;
  readonly id: string;
}

const CWDS: (string | undefined)[] = [
  "/w/a",
  "/w/a",
  "/w/a",
  "/w/b",
  "/w/b",
  "/w/a/",
  "/w/x/../a",
  undefined,
  "",
  "/w/a-b",
];
const ODD_NAMES = ["Zeta", "zeta", "é-session", "a b", "UPPER", "_under", "10", "9", "a.b", "日本"];

/**
 * Writes `count` varied session files into `dir`, as R1.6 and this package both read them the
 * same way: branches, renames and clears, string and block content, images, thinking, tool
 * calls and results, other entry types, missing or empty cwd, invalid or missing timestamps,
 * invalid headers, empty files, garbage and blank lines, torn tails, CRLF, odd file names, and
 * many equal mtimes. Files on which the two differ on purpose are not generated here.
 */
export function generateSessions(dir: string, count: number, seed: number): GeneratedFile[] {
  const rnd = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const files: GeneratedFile[] = [];
  for (let i = 0; i < count; i++) {
    const fileId = `s${seed}-${i}`;
    // A few files share one id: nothing makes ids unique across files (E18).
    const id = rnd() < 0.03 ? `dup${seed}` : fileId;
    const base = Date.UTC(2024, 0, 1) + Math.floor(rnd() * 300) * 86_400_000;
    const iso = new Date(base).toISOString();
    const name =
      rnd() < 0.1
        ? `${pick(ODD_NAMES)}-${i}.jsonl`
        : `${iso.replace(/[:.]/g, "-")}_${fileId}.jsonl`;
    const roll = rnd();
    const hdr: Record<string, unknown> = { type: "session", version: 3, id, timestamp: iso };
    if (rnd() < 0.05) hdr.timestamp = rnd() < 0.5 ? "not a date" : undefined;
    const cwd = pick(CWDS);
    if (cwd !== undefined) hdr.cwd = cwd;
    if (rnd() < 0.1) hdr.parentSession = `/old/${i}.jsonl`;
    const lines: Line[] = [];
    if (roll < 0.03) lines.push(messageEntry("m0", { role: "user", content: "headerless" }));
    else if (roll < 0.06) {
      // Empty file.
    } else {
      if (roll < 0.12) lines.push("", "   ", "{not json", "");
      lines.push(hdr);
      entries(lines, rnd, pick, base);
      if (roll > 0.95) lines.push('{"type":"message","id":"torn","message":{"role":"us');
    }
    const mtime = 1_700_000_000 + Math.floor(rnd() * 40) * 1000;
    writeLines(dir, name, lines, {
      mtime,
      eol: rnd() < 0.05 ? "\r\n" : "\n",
      trailingEol: roll <= 0.95 && rnd() > 0.05,
    });
    files.push({ path: join(dir, name), id });
  }
  return files;
}

/** Appends random entries after a header. */
function entries(
  lines: Line[],
  rnd: () => number,
  pick: <T>(items: readonly T[]) => T,
  base: number,
): void {
  const n = Math.floor(rnd() * 25);
  const ids: string[] = [];
  for (let k = 0; k < n; k++) {
    const id = `e${k}`;
    const parentId =
      ids.length === 0 ? null : rnd() < 0.8 ? (ids[ids.length - 1] ?? null) : pick(ids);
    const time = base + (k + 1) * 60_000;
    const timestamp = rnd() < 0.03 ? "bad time" : new Date(time).toISOString();
    const entry: Record<string, unknown> = { id, parentId, timestamp };
    const kind = rnd();
    if (kind < 0.3) {
      const content =
        rnd() < 0.5
          ? pick(["hello world", "", "   ", `question ${k}`, "multi\nline"])
          : [
              { type: "text", text: `part ${k}` },
              { type: "image", data: "aGk=", mimeType: "image/png" },
              { type: "text", text: pick(["", "second", "ünï"]) },
            ];
      const message: Record<string, unknown> = { role: "user", content };
      if (rnd() < 0.7) message.timestamp = rnd() < 0.1 ? 0 : time;
      Object.assign(entry, { type: "message", message });
    } else if (kind < 0.55) {
      const content = [
        { type: "thinking", thinking: "hmm" },
        { type: "text", text: pick(["answer", "", "done."]) },
        { type: "toolCall", id: `t${k}`, name: "bash", arguments: { command: "ls" } },
      ];
      const message: Record<string, unknown> = { role: "assistant", content, model: "m" };
      if (rnd() < 0.7) message.timestamp = time;
      if (rnd() < 0.05) delete message.content;
      Object.assign(entry, { type: "message", message });
    } else if (kind < 0.7) {
      const message = {
        role: "toolResult",
        toolCallId: "t",
        toolName: "bash",
        content: [{ type: "text", text: "out" }],
        isError: false,
        timestamp: time + 1e9,
      };
      Object.assign(entry, { type: "message", message });
    } else if (kind < 0.8) {
      Object.assign(
        entry,
        { type: "session_info" },
        rnd() < 0.8 ? { name: pick(["  Named  ", "   ", "", "Other name"]) } : {},
      );
    } else if (kind < 0.85) {
      Object.assign(entry, { type: "label", targetId: ids[0] ?? id, label: "L" });
    } else if (kind < 0.9) {
      Object.assign(entry, { type: "model_change", provider: "p", modelId: "m" });
    } else if (kind < 0.95) {
      Object.assign(entry, { type: "custom", customType: "x", data: { a: 1 } });
    } else {
      lines.push(pick(["garbage line", "", "{", "  "]));
      continue;
    }
    ids.push(id);
    lines.push(entry);
  }
}

/** A SessionInfo with its Dates as ISO strings (or "Invalid Date"), comparable with toEqual. */
export function plainInfo(info: SessionInfo): Record<string, unknown> {
  const iso = (d: Date) => (Number.isNaN(d.getTime()) ? "Invalid Date" : d.toISOString());
  return { ...info, created: iso(info.created), modified: iso(info.modified) };
}

/** Plain forms of a list of infos. */
export function plainInfos(infos: readonly SessionInfo[]): Record<string, unknown>[] {
  return infos.map(plainInfo);
}

/** One recorded progress call. */
export interface ProgressCall {
  readonly loaded: number;
  readonly total: number;
  readonly partial: readonly SessionInfo[] | undefined;
}

/** A progress callback that records its calls. */
export function recordProgress(): {
  calls: ProgressCall[];
  callback: (loaded: number, total: number, partial?: readonly SessionInfo[]) => void;
} {
  const calls: ProgressCall[] = [];
  return { calls, callback: (loaded, total, partial) => calls.push({ loaded, total, partial }) };
}

/** The shape of a progress sequence that does not depend on completion order. */
export function progressShape(calls: readonly ProgressCall[]): string[] {
  return calls.map((c) => `${c.loaded}/${c.total}${c.partial ? "+" : ""}`);
}

/** The reference's progress callback type. */
type RefProgress = (loaded: number, total: number, partial?: readonly SessionInfo[]) => void;

/** The part of the reference's session module these tests call (black box). */
export interface ReferenceDiscovery {
  SessionManager: {
    list(
      cwd: string,
      sessionDir?: string,
      onProgress?: RefProgress,
      signal?: AbortSignal,
    ): Promise<SessionInfo[]>;
    listAll(
      sessionDirOrProgress?: string | RefProgress,
      onProgress?: RefProgress,
      signal?: AbortSignal,
    ): Promise<SessionInfo[]>;
    findById(cwd: string, id: string, sessionDir?: string): string | undefined;
    continueRecent(cwd: string, sessionDir?: string): { getSessionFile(): string | undefined };
  };
  findMostRecentSession(dir: string, cwd?: string): string | null;
}

/** Imports R1.6's session module by file path (its package exports do not expose it). */
export async function loadReferenceDiscovery(): Promise<ReferenceDiscovery> {
  const url = new URL(
    "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js",
    import.meta.url,
  );
  return (await import(url.href)) as ReferenceDiscovery;
}
