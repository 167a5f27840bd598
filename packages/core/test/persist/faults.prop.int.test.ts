/**
 * Fault injection (DESIGN I10; SPEC §2.1, §6.5, W1, W5, W6, W13, W14, W15). Sessions of tens
 * of entries are written by our manager; their bytes are damaged — (a) truncated at every byte
 * offset of the last line, (b) truncated at random offsets elsewhere (the header included),
 * (c) given garbage, non-object JSON, blank lines, torn fragments, header copies, duplicates,
 * parent cycles or dangling parents between lines — and then, per case:
 *
 * - a destroyed header makes `open` throw the reference's message and leaves the bytes alone;
 * - otherwise `open` does not throw and does not write (bytes and inode unchanged); it returns
 *   exactly the intact entries (leaf = the last), and `getLoadDiagnostics()` reports each
 *   damaged line by line number (structural damage by entry id), nothing else;
 * - one user message is appended and the manager closed: the file is the damaged bytes, a `\n`
 *   if they lacked one (W1), then the new line — so every intact line is still there in order;
 * - a reopen has the new entry as the leaf, the same diagnostics, and a terminating branch.
 *
 * Sessions for (a): 30, sampled with `FC_SEED` (default fixed). Cases for (b, c): `FC_RUNS`
 * (default 200); replay with `FC_SEED=<seed> FC_PATH=<path>`. The case total is printed.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager, type SessionTreeNode } from "@pi-sessions/core";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { sessionArb, user, writeSession } from "./fault-sessions.js";
import {
  type Damaged,
  diagnosticMismatch,
  inject,
  inOrder,
  lineFaultArb,
  splitLines,
  structuralFaultArb,
  truncate,
} from "./faults-helpers.js";

const settings = fcOptions(200);
const SESSIONS = 30;
const SAMPLE_SEED = settings.seed ?? 424242;
const root = tempDir("pi-faults-");
const counts = new Map<string, number>();
const injected = new Map<string, number>();
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

afterAll(() => {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log(
    `fault injection: ${total} cases`,
    Object.fromEntries(counts),
    "injected lines by kind:",
    Object.fromEntries(injected),
  );
});

// (a)'s sessions are written before the tests are defined, so the title can give the count.
const sessions = fc
  .sample(sessionArb, { numRuns: SESSIONS, seed: SAMPLE_SEED })
  .map((s, i) => writeSession(join(root, `a${i}`), s));
const lastLineStart = (bytes: Buffer) => bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
const lastLineCases = sessions.reduce((n, s) => n + s.bytes.length - lastLineStart(s.bytes), 0);

const nodeCount = (roots: readonly SessionTreeNode[]): number =>
  roots.reduce((n, r) => n + 1 + nodeCount(r.children), 0);

/** Writes `d` over `file` and checks open → append → close → reopen (see the file comment). */
function checkDamaged(file: string, d: Damaged): void {
  writeFileSync(file, d.bytes);
  if (d.headerDestroyed) {
    expect(() => SessionManager.open(file)).toThrow(
      `Session file is not a valid pi session: ${file}`,
    );
    expect(readFileSync(file).equals(d.bytes), "a rejected file is left unchanged").toBe(true);
    return;
  }
  const ino = statSync(file).ino;
  const sm = SessionManager.open(file);
  let newLine: string;
  let newId: string;
  let diagnostics: unknown;
  try {
    expect(readFileSync(file).equals(d.bytes), "open writes nothing (W13)").toBe(true);
    expect(statSync(file).ino, "open does not replace a v3 file").toBe(ino);
    expect(JSON.parse(JSON.stringify(sm.getEntries())), "intact entries").toEqual(d.entries);
    const leaf = (d.entries.at(-1)?.id as string | undefined) ?? null;
    expect(sm.getLeafId(), "leaf = last entry").toBe(leaf);
    diagnostics = sm.getLoadDiagnostics();
    const mismatch = diagnosticMismatch(sm.getLoadDiagnostics(), d);
    expect(mismatch, "diagnostics").toBeUndefined();
    expect(nodeCount(sm.getTree()), "each id once in the tree").toBe(sm.getEntryCount());
    newId = sm.appendMessage(user("after the fault"));
    const entry = sm.getEntry(newId);
    expect(entry?.parentId).toBe(leaf);
    newLine = JSON.stringify(entry);
  } finally {
    sm.close();
  }
  const after = readFileSync(file);
  const sep = d.bytes.length > 0 && d.bytes.at(-1) !== 0x0a ? "\n" : "";
  const prefix = Buffer.concat([d.bytes, Buffer.from(sep)]);
  expect(after.subarray(0, prefix.length).equals(prefix), "damaged bytes kept, then `\\n`").toBe(
    true,
  );
  expect(after.subarray(prefix.length).toString("utf8").replace(/\n$/, "")).toBe(newLine);
  expect(inOrder(splitLines(after), d.intact), "intact lines in order").toBe(true);
  const again = SessionManager.open(file);
  try {
    expect(again.getLeafId(), "the new entry is the leaf after reopen").toBe(newId);
    expect(JSON.stringify(again.getEntry(newId))).toBe(newLine);
    expect(again.getEntries()).toHaveLength(d.entries.length + 1);
    expect(again.getLoadDiagnostics(), "same diagnostics after reopen").toEqual(diagnostics);
    expect(again.getBranch().at(-1)?.id).toBe(newId);
    again.buildSessionContext();
  } finally {
    again.close();
  }
  // Last, so that the checks above still run on a file missing its final newline.
  expect(after.at(-1), "an append ends its line with `\\n` (SPEC §6.3)").toBe(0x0a);
}

type Fault =
  | { kind: "truncate"; inHeader: boolean; n: number }
  | { kind: "inject"; lines: Parameters<typeof inject>[1] };

const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), inHeader: fc.boolean(), n: fc.nat() }),
  fc
    .tuple(fc.array(lineFaultArb, { maxLength: 3 }), fc.option(structuralFaultArb, { nil: null }))
    .filter(([l, s]) => l.length > 0 || s !== null)
    .map(([l, s]) => ({ kind: "inject" as const, lines: s ? [...l, s] : l })),
  fc
    .tuple(fc.array(lineFaultArb, { maxLength: 3 }), structuralFaultArb)
    .map(([l, s]) => ({ kind: "inject" as const, lines: [s, ...l] })),
);

/** The damaged copy of `bytes` and the name of its kind (for the counts). */
function damage(bytes: Buffer, f: Fault): [Damaged, string] {
  if (f.kind === "inject") {
    for (const l of f.lines) bump(injected, l.kind);
    return [inject(bytes, f.lines), "inject"];
  }
  const headerLen = bytes.indexOf(0x0a);
  const at = f.inHeader ? 1 + (f.n % headerLen) : 1 + (f.n % (lastLineStart(bytes) - 1));
  const d = truncate(bytes, at);
  return [d, d.headerDestroyed ? "truncate:header-destroyed" : "truncate:elsewhere"];
}

describe("fault injection: damaged files load, report, and take the next append (I10)", () => {
  // One test per session: each is its own unit of work (and of the runner's time budget),
  // so a loaded machine slows the suite down without failing it.
  describe(`(a) truncating the last line at every byte offset (${SESSIONS} sessions, ${lastLineCases} cases)`, () => {
    it.each(sessions.map((s, i) => [i, s] as const))("session %i", (i, s) => {
      const file = join(root, `a${i}`, "damaged.jsonl");
      for (let at = lastLineStart(s.bytes); at < s.bytes.length; at++) {
        try {
          checkDamaged(file, truncate(s.bytes, at));
        } catch (error) {
          const where = `session ${i} (FC_SEED=${SAMPLE_SEED}), last line cut at byte ${at} of ${s.bytes.length}`;
          throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
        }
        bump(counts, "truncate:last-line");
      }
    });
  });

  it(`(b, c) random truncations elsewhere and injected lines (${settings.numRuns} cases)`, () => {
    let run = 0;
    fc.assert(
      fc.property(sessionArb, faultArb, (s, f) => {
        const dir = join(root, `b${run++}`);
        const { bytes } = writeSession(dir, s);
        const [d, kind] = damage(bytes, f);
        checkDamaged(join(dir, "damaged.jsonl"), d);
        bump(counts, kind);
      }),
      settings,
    );
  });
});
