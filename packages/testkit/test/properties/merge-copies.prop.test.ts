/**
 * Merged files as pi reads them, and copies that are not clean: pi 1.6.0's own SessionManager
 * opens every merged file with the tree ours shows (SPEC §14 M1); damaged lines of both copies
 * are kept and change nothing else; a legacy copy is migrated before the merge (M3).
 */

import {
  mergeSessions,
  parseSessionEntries,
  SessionManager,
  type SessionTreeNode,
} from "@pi-sessions/core";
import {
  canonicalJson,
  type DivergedCopies,
  garbageLineArb,
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
});
