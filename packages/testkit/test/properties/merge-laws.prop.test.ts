/**
 * The laws of `mergeSessions` (SPEC §14 M1–M3, DESIGN rule 8), over copies of one session that
 * diverged after a common prefix (`divergedCopiesArb`: independent appends, labels, names,
 * compactions and branch moves on each side, forced id collisions), checked on what pi shows:
 * the entries, the tree, labels, the name and the context at every leaf.
 */

import {
  buildSessionContext,
  mergeSessions,
  parseSessionEntries,
  referenceFieldsOf,
  type SessionEntry,
  SessionManager,
  type SessionTreeNode,
} from "@pi-sessions/core";
import { canonicalJson } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { params, runs } from "../arbitraries-run.js";
import { divergedTripleArb, divergedPairArb as pair } from "./merge-arbitraries.js";

type Shape = [string, string | undefined, Shape[]];
const shape = (n: SessionTreeNode): Shape => [n.entry.id, n.label, n.children.map(shape)];

/** What pi shows of a session file: entries, tree, labels, name, context at every leaf. */
function observe(bytes: Buffer) {
  const sm = SessionManager.inMemory("/w", undefined, parseSessionEntries(bytes.toString()));
  const entries = sm.getEntries();
  const parents = new Set(entries.map((e) => e.parentId));
  const leaves = entries.filter((e) => !parents.has(e.id)).map((e) => e.id);
  return {
    entries: entries.map((e) => canonicalJson(e)).sort(),
    tree: sm.getTree().map(shape),
    labels: entries.map((e) => [e.id, sm.getLabel(e.id) ?? null]).sort(),
    name: sm.getSessionName() ?? null,
    contexts: leaves.sort().map((id) => [id, canonicalJson(buildSessionContext(entries, id))]),
  };
}

/** An entry's content without its id and references: what a rename leaves as it was. */
function identity(e: Record<string, unknown>): string {
  const rest = { ...e };
  delete rest.id;
  for (const f of referenceFieldsOf(e.type)) delete rest[f];
  return canonicalJson(rest);
}

const merge = (a: string | Buffer, b: string | Buffer) => mergeSessions(a, b).bytes;

describe("mergeSessions laws (SPEC §14 M1–M3)", () => {
  it(`is idempotent: merge(a, a) is a, byte for byte (numRuns ${runs(200)})`, () => {
    fc.assert(
      fc.property(pair, ({ copies }) => {
        for (const c of copies) expect(merge(c.jsonl, c.jsonl).toString()).toBe(c.jsonl);
      }),
      params(200),
    );
  });

  it(`gives the grown copy, byte for byte, in either order (numRuns ${runs(200)})`, () => {
    fc.assert(
      fc.property(pair, ({ header, prefix, copies }) => {
        const before = [header, ...prefix].map((r) => `${JSON.stringify(r)}\n`).join("");
        for (const c of copies) {
          expect(merge(before, c.jsonl).toString()).toBe(c.jsonl);
          expect(merge(c.jsonl, before).toString()).toBe(c.jsonl);
        }
      }),
      params(200),
    );
  });

  it(`is commutative: same entries, tree, labels, name, contexts (numRuns ${runs(300)})`, () => {
    fc.assert(
      fc.property(pair, ({ copies: [a, b] }) => {
        const ab = merge(a?.jsonl ?? "", b?.jsonl ?? "");
        const ba = merge(b?.jsonl ?? "", a?.jsonl ?? "");
        expect(observe(ba)).toEqual(observe(ab));
      }),
      params(300),
    );
  });

  it(`is associative in the same sense (numRuns ${runs(200)})`, () => {
    fc.assert(
      fc.property(divergedTripleArb, ({ copies: [a, b, c] }) => {
        const [x, y, z] = [a, b, c].map((l) => l?.jsonl ?? "") as [string, string, string];
        const left = merge(merge(x, y), z);
        expect(observe(merge(x, merge(y, z)))).toEqual(observe(left));
        // Any grouping and order: (x z) y, as a third machine syncing with either of two would.
        expect(observe(merge(merge(x, z), y))).toEqual(observe(left));
      }),
      params(200),
    );
  });

  it(`absorbs its inputs: merging the result with either copy again is the result, byte for byte (numRuns ${runs(200)})`, () => {
    // What makes a second sync a no-op: each side, once it holds the merge, merges to it again.
    fc.assert(
      fc.property(pair, ({ copies: [a, b] }) => {
        const ab = merge(a?.jsonl ?? "", b?.jsonl ?? "");
        expect(merge(ab, a?.jsonl ?? "").equals(ab)).toBe(true);
        expect(merge(b?.jsonl ?? "", ab).equals(ab)).toBe(true);
      }),
      params(200),
    );
  });

  it(`loses nothing and keeps every parent before its child (numRuns ${runs(300)})`, () => {
    fc.assert(
      fc.property(pair, ({ copies: [a, b] }) => {
        const result = mergeSessions(a?.jsonl ?? "", b?.jsonl ?? "");
        const out = parseSessionEntries(result.bytes.toString()).slice(1) as SessionEntry[];
        const renamedFrom = new Set(result.report.renamed.map((r) => r.from));
        const exact = new Set(out.map((e) => canonicalJson(e)));
        const kept = out.map((e) => identity(e as Record<string, unknown>));
        const union = new Map<string, Record<string, unknown>>();
        for (const e of [...(a?.entries ?? []), ...(b?.entries ?? [])]) {
          union.set(canonicalJson(e), e as unknown as Record<string, unknown>);
        }
        // Each distinct entry once: as it was, or (touched by a rename) with its content.
        expect(out.length).toBe(union.size);
        for (const [text, e] of union) {
          const touched = referenceFieldsOf(e.type)
            .concat("id")
            .some((f) => renamedFrom.has(e[f] as string));
          if (touched) expect(kept).toContain(identity(e));
          else expect(exact.has(text)).toBe(true);
        }
        const seen = new Set<string>();
        for (const e of out) {
          expect(seen.has(e.id as string)).toBe(false);
          if (e.parentId !== null) expect(seen.has(e.parentId as string)).toBe(true);
          seen.add(e.id as string);
        }
        expect(result.report.leafId).toBe(out.at(-1)?.id ?? null);
      }),
      params(300),
    );
  });
});
