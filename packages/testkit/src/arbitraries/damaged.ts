/**
 * Damaged session files: a valid log with torn tails, garbage lines, non-object JSON lines,
 * extra headers, id-less records, duplicate ids, dangling parents and cycles injected. Each
 * value says what was injected and exactly which diagnostics (kind, line, entry) a conforming
 * loader reports, and which entries it must still recover.
 */
import type { SessionEntry } from "@pi-sessions/core";
import fc from "fast-check";
import { isoFromMs, wordArb } from "./common.js";
import {
  applyStructuralDamage,
  type PendingDamage,
  type StructuralSpec,
  type TaggedLine,
} from "./damage-structure.js";
import {
  compareDiagnostics,
  DAMAGE_KINDS,
  type DamagedSession,
  type DamageKind,
  type ExpectedDiagnostic,
  type InjectedDamage,
} from "./damage-types.js";
import { blankLineArb, garbageLineArb, nonObjectLineArb } from "./garbage.js";
import { sessionHeaderArb } from "./header.js";
import type { SessionLog } from "./jsonl.js";
import { userMessageArb } from "./messages.js";
import { type SessionLogOptions, sessionLogArb } from "./session-log.js";

/** A line-level damage: a line inserted at position `at` (mod the line count). */
type LineSpec =
  | { kind: "garbage-line" | "non-object-line" | "blank-line"; at: number; raw: string }
  | { kind: "extra-header" | "missing-id"; at: number; raw: string };

/** How the file ends. */
type TailSpec = { kind: "torn-tail"; cut: number; raw: string } | { kind: "missing-final-newline" };

/** One damage to inject. */
export type DamageSpec = StructuralSpec | LineSpec | TailSpec;

/** Options of {@link damagedSessionArb}: those of the base log, plus which damage to inject. */
export interface DamageOptions extends SessionLogOptions {
  /** Kinds of damage to inject (default: all of {@link DAMAGE_KINDS}). */
  damage?: readonly DamageKind[];
  /** Fewest damages per file (default 1). */
  minDamage?: number;
  /** Most damages per file (default 3). Tail damages beyond the first are dropped. */
  maxDamage?: number;
}

/** The spec arbitrary of one damage kind. */
function damageSpecArb(kind: DamageKind): fc.Arbitrary<DamageSpec> {
  const at = fc.nat();
  switch (kind) {
    case "dangling-parent":
      return fc.record({ kind: fc.constant(kind), pick: fc.nat() }, { noNullPrototype: true });
    case "cycle":
      return fc.record(
        {
          kind: fc.constant(kind),
          pick: fc.nat(),
          depth: fc.nat(),
          turns: fc.nat(),
        },
        { noNullPrototype: true },
      );
    case "duplicate-id":
      return fc.record({ kind: fc.constant(kind), pick: fc.nat(), at }, { noNullPrototype: true });
    case "garbage-line":
      return fc.record(
        { kind: fc.constant(kind), at, raw: garbageLineArb },
        { noNullPrototype: true },
      );
    case "non-object-line":
      return fc.record(
        { kind: fc.constant(kind), at, raw: nonObjectLineArb },
        { noNullPrototype: true },
      );
    case "blank-line":
      return fc.record(
        { kind: fc.constant(kind), at, raw: blankLineArb },
        { noNullPrototype: true },
      );
    case "extra-header":
      return fc.record(
        {
          kind: fc.constant(kind),
          at,
          raw: sessionHeaderArb().map((h) => JSON.stringify(h)),
        },
        { noNullPrototype: true },
      );
    case "missing-id":
      return fc.record(
        {
          kind: fc.constant(kind),
          at,
          raw: wordArb.map((customType) =>
            JSON.stringify({ type: "custom", customType, parentId: null }),
          ),
        },
        { noNullPrototype: true },
      );
    case "torn-tail":
      return fc.record(
        {
          kind: fc.constant(kind),
          cut: fc.nat(),
          raw: userMessageArb().map((message) => JSON.stringify(message)),
        },
        { noNullPrototype: true },
      );
    case "missing-final-newline":
      return fc.constant({ kind });
  }
}

const EXPECTED_OF_LINE: Readonly<Record<LineSpec["kind"], ExpectedDiagnostic["kind"] | undefined>> =
  {
    "garbage-line": "invalid-json",
    "non-object-line": "not-an-object",
    "blank-line": undefined,
    "extra-header": "extra-header",
    "missing-id": "invalid-entry",
  };

const WHAT_OF_LINE: Readonly<Record<LineSpec["kind"], string>> = {
  "garbage-line": "a line that is not JSON",
  "non-object-line": "a JSON line that is not an object",
  "blank-line": "a blank line",
  "extra-header": "a second session header",
  "missing-id": "a record without an id",
};

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isStructural(s: DamageSpec): s is StructuralSpec {
  return s.kind === "dangling-parent" || s.kind === "cycle" || s.kind === "duplicate-id";
}

function isTail(s: DamageSpec): s is TailSpec {
  return s.kind === "torn-tail" || s.kind === "missing-final-newline";
}

/**
 * Applies damage specs to a log (pure). Structural damage first, then inserted lines, then
 * the tail; line numbers are assigned at the end, so every reported line is final.
 */
export function applyDamage(base: SessionLog, specs: readonly DamageSpec[]): DamagedSession {
  const headerLine: TaggedLine = { raw: JSON.stringify(base.header), damage: [] };
  const lines: TaggedLine[] = [
    headerLine,
    ...applyStructuralDamage(base.entries, specs.filter(isStructural)),
  ];
  for (const spec of specs) {
    if (isStructural(spec) || isTail(spec)) continue;
    // Records must come after the header (else one would be taken for it); other lines may
    // go anywhere, even before the header, where loaders skip them too.
    const beforeHeaderOk = spec.kind !== "extra-header" && spec.kind !== "missing-id";
    const h = lines.indexOf(headerLine);
    const pos = beforeHeaderOk
      ? spec.at % (lines.length + 1)
      : h + 1 + (spec.at % (lines.length - h));
    const expectedKind = EXPECTED_OF_LINE[spec.kind];
    const damage: PendingDamage = {
      kind: spec.kind,
      ...(expectedKind ? { expectedKind } : {}),
      describe: (line) => `line ${line}: ${WHAT_OF_LINE[spec.kind]} inserted`,
    };
    lines.splice(pos, 0, { raw: spec.raw, damage: [damage] });
  }
  const tail = specs.find(isTail);
  let text = lines.map((l) => `${l.raw}\n`).join("");
  if (tail?.kind === "torn-tail") {
    // A fragment of one more append: a strict prefix of a JSON object never parses.
    const last = base.entries[base.entries.length - 1];
    const record = JSON.stringify({
      type: "message",
      id: "torn0000",
      parentId: last ? last.id : null,
      timestamp: isoFromMs(Date.parse(base.header.timestamp)),
      message: JSON.parse(tail.raw) as unknown,
    });
    let end = 1 + (tail.cut % (record.length - 1));
    // Never split a surrogate pair: a lone surrogate cannot be written to a UTF-8 file as is.
    if (isHighSurrogate(record.charCodeAt(end - 1))) end -= 1;
    const fragment = record.slice(0, end);
    lines.push({
      raw: fragment,
      damage: [
        {
          kind: "torn-tail",
          expectedKind: "invalid-json",
          describe: (line) =>
            `line ${line}: torn last line (${fragment.length} of ${record.length} characters)`,
        },
      ],
    });
    text += fragment;
  } else if (tail?.kind === "missing-final-newline") {
    text = text.slice(0, -1);
    lines[lines.length - 1] = {
      ...(lines[lines.length - 1] as TaggedLine),
      damage: [
        ...(lines[lines.length - 1] as TaggedLine).damage,
        { kind: "missing-final-newline", describe: (line) => `line ${line}: no final newline` },
      ],
    };
  }
  return finish(base, lines, text);
}

/** Assigns line numbers and collects the damage report. */
function finish(base: SessionLog, lines: readonly TaggedLine[], jsonl: string): DamagedSession {
  const damage: InjectedDamage[] = [];
  const entries: SessionEntry[] = [];
  lines.forEach((l, i) => {
    const line = i + 1;
    if (l.entry) entries.push(l.entry);
    for (const d of l.damage) {
      const expected = d.expectedKind
        ? { kind: d.expectedKind, line, ...(d.entryId !== undefined ? { entryId: d.entryId } : {}) }
        : undefined;
      damage.push({
        kind: d.kind,
        line,
        ...(d.entryId !== undefined ? { entryId: d.entryId } : {}),
        description: d.describe(line),
        ...(expected ? { expected } : {}),
      });
    }
  });
  const expected = damage.flatMap((d) => (d.expected ? [d.expected] : [])).sort(compareDiagnostics);
  const last = entries[entries.length - 1];
  return {
    base,
    header: base.header,
    jsonl,
    damage,
    expected,
    entries,
    leafId: last ? last.id : null,
  };
}

/**
 * A damaged session file. The base log has at least one entry; `options.damage` limits the
 * kinds injected. Shrinks toward fewer damages on a smaller log.
 */
export function damagedSessionArb(options: DamageOptions = {}): fc.Arbitrary<DamagedSession> {
  const kinds = options.damage ?? DAMAGE_KINDS;
  if (kinds.length === 0) throw new Error("damagedSessionArb: no damage kinds");
  const spec = fc.oneof(...kinds.map(damageSpecArb));
  const specs = fc.array(spec, {
    minLength: options.minDamage ?? 1,
    maxLength: options.maxDamage ?? 3,
  });
  const base = sessionLogArb({ ...options, minEntries: Math.max(1, options.minEntries ?? 1) });
  return fc.tuple(base, specs).map(([log, s]) => applyDamage(log, s));
}
