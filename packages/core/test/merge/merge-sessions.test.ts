/**
 * `mergeSessions` on hand-made copies: every field that points at a colliding entry follows
 * its fresh id (the `ENTRY_REFERENCES` table, or a registry's with a plugin's type), the fresh id is the same in either order and
 * when merging again, damaged lines and torn tails stay, and copies of different sessions or of
 * no session are refused.
 */

import {
  defineEntryType,
  entryTypeRegistry,
  InvalidSessionError,
  mergeSessions,
  parseSessionEntries,
  SessionMismatchError,
} from "@pi-sessions/core";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";

const HEADER = {
  type: "session",
  version: 3,
  id: "s1",
  timestamp: "2025-01-01T00:00:00.000Z",
  cwd: "/w",
};
const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();
const msg = (id: string, parentId: string | null, s: number, text: string) => ({
  type: "message",
  id,
  parentId,
  timestamp: at(s),
  message: { role: "user", content: text, timestamp: Date.parse(at(s)) },
});
const file = (...records: object[]) => records.map((r) => `${JSON.stringify(r)}\n`).join("");
const records = (bytes: Buffer) =>
  parseSessionEntries(bytes.toString()) as unknown as Record<string, unknown>[];

const common = [HEADER, msg("00000001", null, 1, "hi")];
// Both machines minted "c0111de5" for different entries; b then points every kind of
// reference at its own "c0111de5".
const a = file(...common, msg("c0111de5", "00000001", 2, "on a"));
const b = file(
  ...common,
  msg("c0111de5", "00000001", 3, "on b"),
  {
    type: "label",
    id: "bb000001",
    parentId: "c0111de5",
    timestamp: at(4),
    targetId: "c0111de5",
    label: "mine",
  },
  {
    type: "compaction",
    id: "bb000002",
    parentId: "bb000001",
    timestamp: at(5),
    summary: "s",
    firstKeptEntryId: "c0111de5",
    tokensBefore: 10,
  },
  {
    type: "branch_summary",
    id: "bb000003",
    parentId: "00000001",
    timestamp: at(6),
    fromId: "c0111de5",
    summary: "left",
  },
  {
    type: "context_edit",
    id: "bb000004",
    parentId: "bb000002",
    timestamp: at(7),
    targetId: "c0111de5",
    replacement: null,
  },
  {
    type: "future_type",
    id: "bb000005",
    parentId: "c0111de5",
    timestamp: at(8),
    targetId: "c0111de5",
  },
);

describe("mergeSessions", () => {
  it("keeps both versions of a colliding id, and every reference to the renamed one follows", () => {
    const result = mergeSessions(a, b);
    expect(result.report.renamed).toHaveLength(1);
    const { from, to, copy } = result.report.renamed[0] as {
      from: string;
      to: string;
      copy: string;
    };
    // "on a" sorts first as canonical JSON ("...on a" < "...on b"), so b's version is renamed.
    expect([from, copy]).toEqual(["c0111de5", "b"]);
    expect(to).toMatch(/^[0-9a-f]{8}$/);
    const byId = new Map(records(result.bytes).map((r) => [r.id, r]));
    expect(byId.get("c0111de5")).toMatchObject({ message: { content: "on a" } });
    expect(byId.get(to)).toMatchObject({ message: { content: "on b" }, parentId: "00000001" });
    expect(byId.get("bb000001")).toMatchObject({ parentId: to, targetId: to });
    expect(byId.get("bb000002")).toMatchObject({ firstKeptEntryId: to });
    expect(byId.get("bb000003")).toMatchObject({ fromId: to });
    expect(byId.get("bb000004")).toMatchObject({ targetId: to });
    // An unknown type is known to reference only its parent: its other fields pass through.
    expect(byId.get("bb000005")).toMatchObject({ parentId: to, targetId: "c0111de5" });
  });

  it("with a registry that defines a plugin's type, that type's references follow too", () => {
    const futureType = defineEntryType({
      type: "future_type",
      codec: t.type({
        type: t.literal("future_type"),
        id: t.string,
        parentId: t.string,
        timestamp: t.string,
        targetId: t.string,
      }),
      references: ["targetId"],
      searchText: null,
      role: "none",
    });
    const entryTypes = entryTypeRegistry([futureType]);
    const plain = mergeSessions(a, b);
    const result = mergeSessions(a, b, { entryTypes });
    const to = result.report.renamed[0]?.to;
    // The same rename (a plugin type's references are not its content), now followed there too.
    expect(result.report.renamed).toEqual(plain.report.renamed);
    const byId = new Map(records(result.bytes).map((r) => [r.id, r]));
    expect(byId.get("bb000005")).toMatchObject({ parentId: to, targetId: to });
    expect(byId.get("bb000001")).toMatchObject({ parentId: to, targetId: to });
    expect(mergeSessions(b, a, { entryTypes }).bytes.equals(result.bytes)).toBe(true);
  });

  it("mints the same fresh id in either order and recognises it when merging again", () => {
    const ab = mergeSessions(a, b);
    const ba = mergeSessions(b, a);
    expect(ba.bytes.equals(ab.bytes)).toBe(true);
    // A third copy that still has b's version under the old id, merged with the result.
    const again = mergeSessions(ab.bytes, b);
    expect(again.report.renamed.map((r) => r.to)).toEqual(ab.report.renamed.map((r) => r.to));
    expect(again.bytes.equals(ab.bytes)).toBe(true);
  });

  it("picks the version that keeps a colliding id by content, not by references a rename changes", () => {
    // Three machines: x and y minted c0000001, x and z minted c0000002. Whether x's c0000002
    // keeps its id must not depend on whether x's c0000001 (its parent) was renamed first, in
    // merge(merge(x, y), z), or together with it, in merge(x, merge(y, z)).
    const think = (id: string, parentId: string, s: number) => ({
      type: "thinking_level_change",
      id,
      parentId,
      timestamp: at(s),
      thinkingLevel: "high",
    });
    const root = [HEADER, msg("00000001", null, 1, "hi"), msg("d0000000", "00000001", 1, "ok")];
    const x = file(...root, msg("c0000001", "00000001", 3, "x"), think("c0000002", "c0000001", 5));
    const y = file(...root, msg("c0000001", "00000001", 2, "w"));
    const z = file(...root, think("c0000002", "d0000000", 4));
    const entries = (bytes: Buffer) =>
      parseSessionEntries(bytes.toString())
        .map((r) => JSON.stringify(r))
        .sort();
    const left = mergeSessions(mergeSessions(x, y).bytes, z).bytes;
    const right = mergeSessions(x, mergeSessions(y, z).bytes).bytes;
    expect(entries(right)).toEqual(entries(left));
    // The earlier thinking change (z's, at 4 s) keeps the id, whatever its parent's id.
    expect(records(left).find((r) => r.id === "c0000002")).toMatchObject({ parentId: "d0000000" });
  });

  it("interleaves diverged lines by time, so the latest activity is last", () => {
    const later = file(
      ...common,
      msg("aaaaaaa1", "00000001", 2, "a early"),
      msg("aaaaaaa2", "aaaaaaa1", 9, "a late"),
    );
    const middle = file(...common, msg("bbbbbbb1", "00000001", 5, "b middle"));
    const ids = records(mergeSessions(middle, later).bytes).map((r) => r.id);
    expect(ids).toEqual(["s1", "00000001", "aaaaaaa1", "bbbbbbb1", "aaaaaaa2"]);
    expect(mergeSessions(later, middle).report.leafId).toBe("aaaaaaa2");
  });

  it("keeps damaged lines, a torn tail and lines before the header of both copies", () => {
    const dirtyA = `garbage before\n${file(...common)}not json\n{"type":"message","id":"x`;
    const dirtyB = `${file(...common, msg("bbbbbbb1", "00000001", 5, "b"))}[1,2]\n`;
    const out = mergeSessions(dirtyA, dirtyB).bytes.toString().split("\n");
    expect(out[0]).toBe("garbage before");
    for (const line of ["not json", '{"type":"message","id":"x', "[1,2]"])
      expect(out).toContain(line);
    expect(out.at(-1)).toBe("");
  });

  it("returns a copy that has everything unchanged, byte for byte, even a torn tail", () => {
    const torn = `${file(...common)}{"type":"mess`;
    expect(mergeSessions(torn, file(...common)).bytes.toString()).toBe(torn);
    expect(mergeSessions(file(...common), torn).bytes.toString()).toBe(torn);
  });

  it("refuses copies of two sessions, and a copy that is no session", () => {
    const other = file({ ...HEADER, id: "s2" });
    expect(() => mergeSessions(a, other)).toThrow(SessionMismatchError);
    expect(() => mergeSessions(a, "no header\n")).toThrow(InvalidSessionError);
    expect(() => mergeSessions("", a)).toThrow(InvalidSessionError);
  });
});
