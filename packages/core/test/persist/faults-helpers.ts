/**
 * Fault injection helpers (DESIGN I10, SPEC §2.1, §6.5, W1, W5, W6, W13–W15): damaged copies
 * of a session file's bytes — truncated anywhere, or with garbage, non-object JSON, torn
 * fragments, duplicates, cycles and dangling parents inserted between lines — each with
 * exactly what a load must recover and report. The sessions come from fault-sessions.ts.
 */
import type { LoadDiagnostic } from "@pi-sessions/core";
import fc from "fast-check";

type Json = Record<string, unknown>;

/** The lines of a buffer (split on `\n`; the empty piece after a final `\n` dropped). */
export function splitLines(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, start)) {
    out.push(bytes.subarray(start, i));
    start = i + 1;
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}

/** A diagnostic a load must report: parse problems by line, structural ones by entry id. */
export type ExpectedDiag =
  | { kind: "invalid-json" | "not-an-object" | "extra-header"; line: number }
  | { kind: "duplicate-id" | "dangling-parent" | "cycle"; entryId: string }
  /** A parent cycle: one diagnostic naming any of its members. */
  | { kind: "cycle"; anyOf: string[] };

/** A damaged file and what loading it must give. */
export interface Damaged {
  readonly bytes: Buffer;
  /** The header line is gone or torn: open must throw and leave the file alone. */
  readonly headerDestroyed: boolean;
  /** Original lines still whole, in order (the last may lack its `\n`). */
  readonly intact: Buffer[];
  /** The entries a load must return, in file order (original and injected). */
  readonly entries: Json[];
  readonly diagnostics: ExpectedDiag[];
  /** The 1-based line of each entry id's last occurrence (the one a lookup finds). */
  readonly lineOfId: ReadonlyMap<string, number>;
}

const parse = (b: Buffer) => JSON.parse(b.toString("utf8")) as Json;

/** The file cut to its first `at` bytes (a writer that died mid-write, W1). */
export function truncate(bytes: Buffer, at: number): Damaged {
  const lines = splitLines(bytes);
  const intact: Buffer[] = [];
  const diagnostics: ExpectedDiag[] = [];
  let headerDestroyed = false;
  let start = 0;
  for (const [k, line] of lines.entries()) {
    if (start >= at) break;
    if (start + line.length <= at)
      intact.push(line); // whole, perhaps without its `\n`
    else if (k === 0) headerDestroyed = true;
    else diagnostics.push({ kind: "invalid-json", line: k + 1 });
    start += line.length + 1;
  }
  const entries = intact.slice(1).map(parse);
  const lineOfId = new Map(entries.map((e, k) => [e.id as string, k + 2]));
  return { bytes: bytes.subarray(0, at), headerDestroyed, intact, entries, diagnostics, lineOfId };
}

/** A line inserted after the header. Numbers are resolved modulo what they index. */
export type Injection =
  | { kind: "garbage"; text: string; pos: number }
  | { kind: "fragment"; of: number; cut: number; pos: number }
  | { kind: "header-copy"; pos: number }
  | { kind: "duplicate"; of: number; pos: number }
  | { kind: "self-cycle"; pos: number }
  | { kind: "pair-cycle"; pos: number }
  | { kind: "dup-cycle"; of: number; ancestor: number; pos: number }
  | { kind: "dangling"; pos: number };

const garbageText = fc.oneof(
  fc.constantFrom("garbage line", "THIS LINE IS MALFORMED", "{", "}{", '{"type":"message",'),
  fc.constantFrom("42", '"str"', "[1,2]", "true", "null", "-0.5e3", "[]", '""', "{}x"),
  fc.constantFrom("", "   ", "\t", "\r"),
  fc.string({ minLength: 1, maxLength: 20 }),
);
const n = fc.nat(999);
/** Parse-level faults (any number) and structural ones (at most one per case, see below). */
export const lineFaultArb: fc.Arbitrary<Injection> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("garbage"), text: garbageText, pos: n }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("fragment"), of: n, cut: n, pos: n }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("header-copy"), pos: n }) },
) as fc.Arbitrary<Injection>;
export const structuralFaultArb: fc.Arbitrary<Injection> = fc.oneof(
  fc.record({ kind: fc.constant("duplicate"), of: n, pos: n }),
  fc.record({ kind: fc.constant("self-cycle"), pos: n }),
  fc.record({ kind: fc.constant("pair-cycle"), pos: n }),
  fc.record({ kind: fc.constant("dup-cycle"), of: n, ancestor: n, pos: n }),
  fc.record({ kind: fc.constant("dangling"), pos: n }),
) as fc.Arbitrary<Injection>;

interface Line {
  buf: Buffer;
  original: boolean;
  entry?: Json;
  diag?: ExpectedDiag | { kind: "invalid-json" | "not-an-object" | "extra-header" };
}

/** What a garbage line is to a loader: blank (ignored), not an object, or not JSON. */
function classify(text: string): Line["diag"] | "object" | undefined {
  if (text.trim() === "") return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v)
      ? "object"
      : { kind: "not-an-object" };
  } catch {
    return { kind: "invalid-json" };
  }
}

const injected = (id: string, parentId: string): Json => ({
  type: "custom",
  customType: "injected",
  id,
  parentId,
  timestamp: "2025-01-01T00:00:00.000Z",
});

/** The file with `faults` inserted in turn (positions among the lines after the header). */
export function inject(bytes: Buffer, faults: readonly Injection[]): Damaged {
  const lines: Line[] = splitLines(bytes).map((buf, k) =>
    k === 0 ? { buf, original: true } : { buf, original: true, entry: parse(buf) },
  );
  const entryLines = () => lines.filter((l) => l.entry && l.original);
  const structural: ExpectedDiag[] = [];
  const put = (pos: number, ...add: Line[]) => lines.splice(1 + (pos % lines.length), 0, ...add);
  const asLine = (entry: Json): Line => ({
    buf: Buffer.from(JSON.stringify(entry)),
    original: false,
    entry,
  });
  for (const [i, f] of faults.entries()) {
    const es = entryLines();
    switch (f.kind) {
      case "garbage": {
        const c = classify(f.text);
        const text = c === "object" ? `#${f.text}` : f.text;
        put(f.pos, {
          buf: Buffer.from(text),
          original: false,
          diag: c === "object" ? { kind: "invalid-json" } : c,
        });
        break;
      }
      case "fragment": {
        const src = (es[f.of % es.length] as Line).buf; // a proper prefix: never valid JSON
        put(f.pos, {
          buf: src.subarray(0, 1 + (f.cut % (src.length - 1))),
          original: false,
          diag: { kind: "invalid-json" },
        });
        break;
      }
      case "header-copy":
        put(f.pos, {
          buf: (lines[0] as Line).buf,
          original: false,
          diag: { kind: "extra-header" },
        });
        break;
      case "duplicate": {
        const e = (es[f.of % es.length] as Line).entry as Json;
        put(f.pos, asLine({ ...e }));
        structural.push({ kind: "duplicate-id", entryId: e.id as string });
        break;
      }
      case "self-cycle":
        put(f.pos, asLine(injected(`self-${i}`, `self-${i}`)));
        structural.push({ kind: "cycle", entryId: `self-${i}` });
        break;
      case "pair-cycle":
        put(f.pos, asLine(injected(`x-${i}`, `y-${i}`)), asLine(injected(`y-${i}`, `x-${i}`)));
        structural.push({ kind: "cycle", anyOf: [`x-${i}`, `y-${i}`] });
        break;
      case "dup-cycle": {
        // A later copy of an ancestor of `low` whose parent is `low`: the copy shadows the
        // ancestor, so walking up from `low` comes back to it.
        const low = es[f.of % es.length] as Line;
        const byId = new Map(es.map((l) => [l.entry?.id, l.entry as Json]));
        const chain: Json[] = [];
        for (let e: Json | undefined = low.entry; e && !chain.includes(e); ) {
          chain.push(e);
          e = byId.get(e.parentId);
        }
        const anc = chain[f.ancestor % chain.length] as Json;
        const after = Math.max(
          ...[low.entry, anc].map((e) => lines.findIndex((l) => l.entry === e)),
        );
        lines.splice(
          after + 1 + (f.pos % (lines.length - after)),
          0,
          asLine({ ...anc, parentId: low.entry?.id }),
        );
        structural.push({ kind: "duplicate-id", entryId: anc.id as string });
        structural.push({ kind: "cycle", anyOf: chain.map((e) => e.id as string) });
        break;
      }
      case "dangling":
        put(f.pos, asLine(injected(`dangling-${i}`, `no-such-parent-${i}`)));
        structural.push({ kind: "dangling-parent", entryId: `dangling-${i}` });
        break;
    }
  }
  const diagnostics: ExpectedDiag[] = [];
  const lineOfId = new Map<string, number>();
  lines.forEach((l, k) => {
    if (l.diag) diagnostics.push({ kind: l.diag.kind, line: k + 1 } as ExpectedDiag);
    if (l.entry) lineOfId.set(l.entry.id as string, k + 1);
  });
  return {
    bytes: Buffer.concat(lines.flatMap((l) => [l.buf, Buffer.from("\n")])),
    headerDestroyed: false,
    intact: lines.filter((l) => l.original).map((l) => l.buf),
    entries: lines.flatMap((l) => (l.entry ? [l.entry] : [])),
    diagnostics: [...diagnostics, ...structural],
    lineOfId,
  };
}

/**
 * Why the reported diagnostics differ from the expected ones, or undefined if they match.
 * Structural ones (by entry id) may leave `line` out — today they all do, see
 * src-bugs.int.test.ts — but a line they give must be that of the entry the id resolves to.
 */
export function diagnosticMismatch(
  actual: readonly LoadDiagnostic[],
  d0: Pick<Damaged, "diagnostics" | "lineOfId">,
): string | undefined {
  const left = [...actual];
  for (const e of d0.diagnostics) {
    const i = left.findIndex(
      (d) =>
        d.kind === e.kind &&
        ("line" in e ? d.line === e.line : true) &&
        ("entryId" in e ? d.entryId === e.entryId : true) &&
        ("anyOf" in e ? e.anyOf.includes(d.entryId as string) : true) &&
        ("line" in e || d.line === undefined || d.line === d0.lineOfId.get(d.entryId as string)),
    );
    if (i === -1) return `missing ${JSON.stringify(e)} in ${JSON.stringify(actual)}`;
    left.splice(i, 1);
  }
  return left.length > 0 ? `unexpected ${JSON.stringify(left)}` : undefined;
}

/** True if `needles` occur in `hay` in order (as whole lines). */
export function inOrder(hay: readonly Buffer[], needles: readonly Buffer[]): boolean {
  let i = 0;
  for (const line of hay) if (i < needles.length && line.equals(needles[i] as Buffer)) i++;
  return i === needles.length;
}
