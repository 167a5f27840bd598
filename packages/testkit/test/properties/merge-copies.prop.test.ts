/**
 * Merged files as pi reads them, and copies that are not clean: pi 1.6.0's own SessionManager
 * opens every merged file with the tree ours shows (SPEC §14 M1); damaged lines of both copies
 * are kept and change nothing else; a legacy copy is migrated before the merge (M3).
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  mergeSessions,
  parseSessionEntries,
  SessionManager,
  type SessionTreeNode,
} from "@pi-sessions/core";
import { tempDir } from "@pi-sessions/test-utils";
import {
  canonicalJson,
  type DivergedCopies,
  garbageLineArb,
  legacySessionArb,
  nonObjectLineArb,
} from "@pi-sessions/testkit";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { params, runs } from "../arbitraries-run.js";
import { divergedPairArb as pair } from "./merge-arbitraries.js";

type Shape = [string, string | undefined, string | undefined, Shape[]];
type Node = Pick<SessionTreeNode, "label" | "labelTimestamp"> & {
  entry: { id: string };
  children: Node[];
};
const shape = (n: Node): Shape => [n.entry.id, n.label, n.labelTimestamp, n.children.map(shape)];

/** The part of pi's session module these tests use. */
interface PiModule {
  SessionManager: {
    inMemory(
      cwd: string,
      options: undefined,
      entries: unknown[],
    ): {
      getTree(): Node[];
      getLeafId(): string | null;
      getSessionName(): string | undefined;
    };
    open(path: string): {
      appendMessage(message: { role: "user"; content: string; timestamp: number }): string;
    };
  };
}

const url = new URL(
  "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js",
  import.meta.url,
);
let pi: PiModule;
beforeAll(async () => {
  pi = (await import(url.href)) as PiModule;
});

const copiesOf = (d: DivergedCopies) => [d.copies[0]?.jsonl ?? "", d.copies[1]?.jsonl ?? ""];

/** Our view of a merged file: tree, leaf, name. */
function ours(bytes: Buffer) {
  const sm = SessionManager.inMemory("/w", undefined, parseSessionEntries(bytes.toString()));
  return { tree: sm.getTree().map(shape), leaf: sm.getLeafId(), name: sm.getSessionName() };
}

/** Lines of `text` with `extra` lines put after the given (wrapped) line positions. */
function withLines(text: string, extra: readonly [number, string][]): string {
  const lines = text.split("\n").slice(0, -1);
  for (const [at, line] of extra) lines.splice(1 + (at % lines.length), 0, line);
  return `${lines.join("\n")}\n`;
}

const damage = fc.array(
  fc.tuple(
    fc.nat(),
    fc.oneof(garbageLineArb, nonObjectLineArb).filter((l) => !l.includes("\n") && l.trim() !== ""),
  ),
  { minLength: 1, maxLength: 3 },
);

describe("merged files and unclean copies", () => {
  it(`pi 1.6.0 opens every merged file with our tree, leaf and name (numRuns ${runs(150)})`, () => {
    fc.assert(
      fc.property(pair, (d) => {
        const [a, b] = copiesOf(d) as [string, string];
        const merged = mergeSessions(a, b).bytes;
        const sm = pi.SessionManager.inMemory(
          "/w",
          undefined,
          parseSessionEntries(merged.toString()),
        );
        expect({
          tree: sm.getTree().map(shape),
          leaf: sm.getLeafId(),
          name: sm.getSessionName(),
        }).toEqual(ours(merged));
      }),
      params(150),
    );
  });

  it(`keeps every damaged line of both copies and changes nothing else (numRuns ${runs(200)})`, () => {
    fc.assert(
      fc.property(pair, damage, damage, (d, da, db) => {
        const [a, b] = copiesOf(d) as [string, string];
        const clean = mergeSessions(a, b);
        const dirty = mergeSessions(withLines(a, da), withLines(b, db));
        const out = dirty.bytes.toString().split("\n");
        for (const [, line] of [...da, ...db]) expect(out).toContain(line);
        const entries = (x: Buffer) =>
          parseSessionEntries(x.toString()).map((r) => canonicalJson(r));
        expect(entries(dirty.bytes).sort()).toEqual(entries(clean.bytes).sort());
      }),
      params(200),
    );
  });

  it(`migrates a legacy copy first: same session as merging the v3 copies (numRuns ${runs(150)})`, () => {
    fc.assert(
      fc.property(pair, fc.constantFrom(1, 2), (d, version) => {
        const [a, b] = copiesOf(d) as [string, string];
        const header = { ...d.header, version };
        if (version === 1) delete (header as { version?: number }).version;
        const legacy = `${JSON.stringify(header)}\n${a.slice(a.indexOf("\n") + 1)}`;
        const merged = mergeSessions(legacy, b);
        expect(merged.report.migrated.a).toBe(version);
        const records = parseSessionEntries(merged.bytes.toString());
        expect(records[0]).toMatchObject({ type: "session", version: 3 });
        const entries = (x: Buffer) =>
          parseSessionEntries(x.toString())
            .slice(1)
            .map((r) => canonicalJson(r));
        expect(entries(merged.bytes).sort()).toEqual(entries(mergeSessions(a, b).bytes).sort());
      }),
      params(150),
    );
  });

  it(`merges a v1 copy with the copy pi 1.6.0 migrated: each entry once (numRuns ${runs(100)})`, () => {
    // Machine A still has the v1 file and appended to it with an old pi; machine B opened the
    // file's earlier state with pi 1.6.0, which migrated it (random ids) and went on. The ids
    // our migration gives A's copy are ours to choose: the entries pi migrated keep pi's.
    const dir = tempDir();
    fc.assert(
      fc.property(legacySessionArb({ version: 1 }), fc.nat(), fc.nat(3), (v1, cut, appends) => {
        const lines = v1.jsonl.split("\n").slice(0, -1);
        const shared = 1 + (cut % lines.length); // how much of the file B's copy was taken from
        const path = join(dir, "b.jsonl");
        writeFileSync(path, `${lines.slice(0, shared).join("\n")}\n`);
        const sm = pi.SessionManager.open(path);
        for (let i = 0; i < appends; i++) {
          sm.appendMessage({ role: "user", content: `on b ${i}`, timestamp: 1_700_000_000_000 });
        }
        const b = readFileSync(path, "utf8");
        const bEntries = parseSessionEntries(b).length - 1;
        const merged = mergeSessions(v1.jsonl, b);
        const out = parseSessionEntries(merged.bytes.toString()).slice(1);
        // Every entry of B once, and A's entries past the shared part (none of A's is lost).
        expect(out).toHaveLength(bEntries + (lines.length - shared));
        const content = (r: object) => {
          const { id, parentId, firstKeptEntryId, firstKeptEntryIndex, ...rest } = r as Record<
            string,
            unknown
          >;
          return canonicalJson(rest);
        };
        const kept = new Set(out.map(content));
        for (const r of v1.records.slice(shared)) expect(kept.has(content(r))).toBe(true);
        const ids = new Set(parseSessionEntries(b).map((r) => (r as { id: string }).id));
        for (const e of out.slice(0, shared - 1))
          expect(ids.has((e as { id: string }).id)).toBe(true);
        expect(mergeSessions(b, v1.jsonl).bytes.equals(merged.bytes)).toBe(true);
      }),
      params(100),
    );
  });
});
