/**
 * `mergeSessions(a, b)`: two copies of one session (the same header id) that went separate ways
 * on two machines become one session holding every entry of both once (SPEC §14 M1–M3). A pi
 * session is an append-only tree, so two diverged copies are two sets of branches of one tree:
 * the merge is a union of two logs. Pure: text or bytes in, bytes and a report out.
 */

import { referenceFieldsOf } from "../schema/entry-references.js";
import type { EntryTypeRegistry } from "../schema/entry-type-registry.js";
import { canonicalJson } from "./canonical-json.js";
import { type ChainLine, interleaveChains, type LineOrigin } from "./chain-order.js";
import {
  type CollisionRule,
  identityText,
  type RenamedEntry,
  renameCollisions,
} from "./id-collisions.js";
import { alignMintedIds } from "./legacy-ids.js";
import {
  type CopyLine,
  type MergeInput,
  rawText,
  readCopy,
  type SessionCopy,
} from "./session-copy.js";

/** Thrown when two copies are not copies of one session (their header ids differ). */
export class SessionMismatchError extends Error {
  constructor(
    readonly idA: string,
    readonly idB: string,
  ) {
    super(`Not copies of one session: header ids ${idA} and ${idB} differ`);
    this.name = "SessionMismatchError";
  }
}

/** Options of {@link mergeSessions}. */
export interface MergeOptions {
  /**
   * Who keeps an id two copies use for different entries: `"symmetric"` (default) the version
   * whose canonical JSON sorts first, so the merge does not depend on argument order;
   * `"keep-a"` every version `a` holds — for an `a` that cannot be rewritten (an append-only
   * log on a server), so only `b`'s entries get fresh ids.
   */
  readonly collisions?: CollisionRule;
  /** The entry types whose references follow a rename (default the built-ins; add a plugin's). */
  readonly entryTypes?: Pick<EntryTypeRegistry, "referenceFieldsOf">;
}

/** One line of the merged session. */
export interface MergedLine {
  /** The header, an entry (a record with a string id), or a line kept as it is. */
  readonly kind: "header" | "entry" | "opaque";
  /** The copy it came from (`both`: each copy has it). */
  readonly origin: LineOrigin;
  /** The entry or header record (absent for an opaque line). */
  readonly record?: Readonly<Record<string, unknown>>;
  /** The line's bytes without `\n`: as read, or the record serialised anew if it changed. */
  readonly bytes: Buffer;
}

/** What a merge did. */
export interface MergeReport {
  /** The header id both copies share. */
  readonly sessionId: string;
  /** Entries in the result, and how many came from only `a`, only `b`, or both. */
  readonly entries: {
    readonly total: number;
    readonly a: number;
    readonly b: number;
    readonly both: number;
  };
  /** Lines kept without being read as entries (damaged, not objects, no id), from either copy. */
  readonly opaqueLines: number;
  /** Versions of a colliding id that got a fresh id; every reference to them followed. */
  readonly renamed: readonly RenamedEntry[];
  /** The format version of a legacy copy, migrated before the merge. */
  readonly migrated: { readonly a?: number; readonly b?: number };
  /** The copy whose header was kept, and whether the headers differed (beyond the version). */
  readonly header: { readonly from: "a" | "b"; readonly differed: boolean };
  /** The last entry: where pi continues after loading the merged file. */
  readonly leafId: string | null;
  /** Whether the result is exactly `a`'s bytes. */
  readonly sameAsA: boolean;
  /** Whether the result is exactly `b`'s bytes. */
  readonly sameAsB: boolean;
}

/** The merged session. */
export interface MergeResult {
  /** The merged file: every line followed by `\n` (or a copy's exact bytes, when it had all). */
  readonly bytes: Buffer;
  /** The merged file line by line, each with the copy it came from. */
  readonly lines: readonly MergedLine[];
  /** What the merge did. */
  readonly report: MergeReport;
}

/** Numbers for key texts, shared by both copies: the maps and sets of the merge hash each once. */
class Keys {
  private readonly numbers = new Map<string, number>();
  of(text: string): number {
    const known = this.numbers.get(text);
    if (known !== undefined) return known;
    const n = this.numbers.size;
    this.numbers.set(text, n);
    return n;
  }
}

/** An entry's or opaque line's chain form; `occurrence` tells repeated opaque lines apart. */
function toChain(copy: SessionCopy, otherRaw: ReadonlySet<string>, keys: Keys): ChainLine[] {
  const seen = new Map<string, number>();
  let ms = Number.NEGATIVE_INFINITY;
  return copy.lines.map((line): ChainLine => {
    if (line.kind === "entry" && line.record) {
      const record = line.record;
      const t = Date.parse(String(record.timestamp));
      if (!Number.isNaN(t)) ms = t;
      // The same bytes in both copies are the same entry; only the rest are compared as JSON
      // values (their canonical text costs far more than the bytes).
      const raw = line.changed ? undefined : rawText(line);
      const keyText =
        raw !== undefined && otherRaw.has(raw) ? `r${raw}` : `e${canonicalJson(record)}`;
      let rank: string | undefined;
      const rankOf = () => {
        rank ??= identityText(record);
        return rank;
      };
      return { key: keys.of(keyText), keyText, rank: rankOf, ms, tier: 0, record };
    }
    const raw = rawText(line);
    const n = seen.get(raw) ?? 0;
    seen.set(raw, n + 1);
    const keyText = `o${n}:${raw}`;
    return { key: keys.of(keyText), keyText, rank: () => raw, ms, tier: 1 };
  });
}

/** The bytes of a copy's entry lines that are as read, for the quick "same line" check. */
function unchangedRaw(copy: SessionCopy): Set<string> {
  const out = new Set<string>();
  for (const l of copy.lines) if (l.kind === "entry" && !l.changed) out.add(rawText(l));
  return out;
}

/** The bytes of a line: as read, or its record serialised if migration or a rename changed it. */
function bytesOf(line: CopyLine): Buffer {
  return line.changed && line.record ? Buffer.from(JSON.stringify(line.record)) : line.raw;
}

/** Whether a copy's lines are all still as read (not migrated, nothing renamed). */
function untouched(copy: SessionCopy): boolean {
  return !copy.header.changed && copy.lines.every((l) => !l.changed);
}

/**
 * Merges two copies of one session (SPEC §14 M1–M3). Every entry of both is in the result
 * once — entries are the same when their JSON values are equal — with every parent before its
 * child; damaged and unknown lines of both are kept; a legacy copy is migrated first.
 *
 * Order: each copy's own order is kept; where the copies diverged, their new lines are
 * interleaved by entry time, so the file ends on the most recent activity of either machine
 * and pi continues there (see `chain-order.ts` for why). When one copy holds everything the
 * other has, the result is that copy, byte for byte: `merge(a, a)` is `a`, and a copy merged
 * with its own grown copy gives the grown copy. Throws `InvalidSessionError` when a copy is
 * not a session and {@link SessionMismatchError} when the header ids differ.
 */
export function mergeSessions(
  a: MergeInput,
  b: MergeInput,
  options: MergeOptions = {},
): MergeResult {
  const ca = readCopy(a, "a");
  const cb = readCopy(b, "b");
  if (ca.sessionId !== cb.sessionId) throw new SessionMismatchError(ca.sessionId, cb.sessionId);
  const fields = options.entryTypes?.referenceFieldsOf ?? referenceFieldsOf;
  alignMintedIds(ca, cb, fields);
  alignMintedIds(cb, ca, fields);
  const renamed = renameCollisions(ca, cb, options.collisions ?? "symmetric", fields);
  const keys = new Keys();
  const chainA = toChain(ca, unchangedRaw(cb), keys);
  const chainB = toChain(cb, unchangedRaw(ca), keys);
  const keysA = new Set(chainA.map((l) => l.key));
  const keysB = new Set(chainB.map((l) => l.key));
  const rawOf = (c: SessionCopy) => new Set(c.beforeHeader.map((l) => l.raw.toString("latin1")));
  const newsA =
    chainA.some((l) => !keysB.has(l.key)) || [...rawOf(ca)].some((r) => !rawOf(cb).has(r));
  const newsB =
    chainB.some((l) => !keysA.has(l.key)) || [...rawOf(cb)].some((r) => !rawOf(ca).has(r));
  const headerA = canonicalJson(ca.header.record);
  const headerB = canonicalJson(cb.header.record);
  const headerFrom: "a" | "b" = headerA <= headerB ? "a" : "b";
  // One copy has everything the other has: it is the result, as it is (or as migrated).
  const whole =
    newsA && !newsB
      ? ca
      : newsB && !newsA
        ? cb
        : !newsA && ca.bytes.equals(cb.bytes)
          ? ca
          : undefined;
  let lines: MergedLine[];
  if (whole) {
    const origin = (key: number): LineOrigin =>
      keysA.has(key) && keysB.has(key) ? "both" : whole === ca ? "a" : "b";
    const chain = whole === ca ? chainA : chainB;
    lines = [
      ...whole.beforeHeader.map((l) => opaqueLine(l, "both")),
      headerLine(whole.header, "both"),
      ...whole.lines.map((l, i) => lineOf(l, origin((chain[i] as ChainLine).key))),
    ];
  } else {
    const lineByKey = new Map<number, CopyLine>();
    for (const [chain, copy] of [
      [chainB, cb],
      [chainA, ca],
    ] as const) {
      chain.forEach((l, i) => {
        lineByKey.set(l.key, copy.lines[i] as CopyLine);
      });
    }
    const beforeA = new Set(ca.beforeHeader.map((l) => l.raw.toString("latin1")));
    lines = [
      ...ca.beforeHeader.map((l) => opaqueLine(l, "a")),
      ...cb.beforeHeader
        .filter((l) => !beforeA.has(l.raw.toString("latin1")))
        .map((l) => opaqueLine(l, "b")),
      headerLine(
        headerFrom === "a" ? ca.header : cb.header,
        headerA === headerB ? "both" : headerFrom,
      ),
      ...interleaveChains(chainA, chainB).map(({ line, origin }) =>
        lineOf(lineByKey.get(line.key) as CopyLine, origin),
      ),
    ];
  }
  const bytes =
    whole && untouched(whole)
      ? whole.bytes
      : Buffer.concat(lines.flatMap((l) => [l.bytes, NEWLINE]));
  return {
    bytes,
    lines,
    report: reportOf(ca, cb, lines, renamed, bytes, headerFrom, headerA !== headerB),
  };
}

const NEWLINE = Buffer.from("\n");

function opaqueLine(line: CopyLine, origin: LineOrigin): MergedLine {
  return { kind: "opaque", origin, bytes: line.raw };
}

function headerLine(line: SessionCopy["header"], origin: LineOrigin): MergedLine {
  return { kind: "header", origin, record: line.record, bytes: bytesOf(line) };
}

function lineOf(line: CopyLine, origin: LineOrigin): MergedLine {
  if (line.kind === "opaque" || !line.record) return opaqueLine(line, origin);
  return { kind: "entry", origin, record: line.record, bytes: bytesOf(line) };
}

function reportOf(
  ca: SessionCopy,
  cb: SessionCopy,
  lines: readonly MergedLine[],
  renamed: readonly RenamedEntry[],
  bytes: Buffer,
  headerFrom: "a" | "b",
  headersDiffer: boolean,
): MergeReport {
  const entries = { total: 0, a: 0, b: 0, both: 0 };
  let opaqueLines = 0;
  let leafId: string | null = null;
  for (const l of lines) {
    if (l.kind === "opaque") opaqueLines++;
    if (l.kind !== "entry") continue;
    entries.total++;
    entries[l.origin]++;
    leafId = l.record?.id as string;
  }
  const migrated: { a?: number; b?: number } = {};
  if (ca.fromVersion < 3) migrated.a = ca.fromVersion;
  if (cb.fromVersion < 3) migrated.b = cb.fromVersion;
  return {
    sessionId: ca.sessionId,
    entries,
    opaqueLines,
    renamed,
    migrated,
    header: { from: headerFrom, differed: headersDiffer },
    leafId,
    sameAsA: bytes.equals(ca.bytes),
    sameAsB: bytes.equals(cb.bytes),
  };
}
