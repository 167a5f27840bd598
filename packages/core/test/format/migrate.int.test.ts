import {
  createDeterministicEnv,
  type FileEntry,
  migrateSessionEntries,
  type SessionEnv,
} from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import {
  documentRecords,
  type JsonRecord,
  migrateDocument,
  migrateRecords,
  parseJsonl,
} from "../core-parts.js";
import { corpus, deepFreeze, entriesOf, normaliseIds, referenceMigration } from "./helpers.js";

const HEX8 = /^[0-9a-f]{8}$/;
const env = (): SessionEnv => createDeterministicEnv({ seed: 7 });

describe("migrateRecords edge cases", () => {
  const header = { type: "session", id: "s", timestamp: "t", cwd: "/w" };

  it("leaves version ≥ 3 (and a non-numeric version) untouched: same objects", () => {
    const records = [{ ...header, version: 3 }, { type: "x" }];
    const result = migrateRecords(records, env());
    expect(result.changed).toBe(false);
    expect(result.records[0]).toBe(records[0]);
    expect(result.records[1]).toBe(records[1]);
    expect(migrateRecords([{ ...header, version: 9 }, { type: "x" }], env()).changed).toBe(false);
    const nan = migrateRecords([{ ...header, version: "abc" }, { type: "x" }], env());
    expect(nan.changed).toBe(false);
    expect(nan.diagnostics.map((d) => d.kind)).toEqual(["version-not-a-number"]);
  });

  it("v2 → v3 only bumps the version and renames hookMessage, sharing other records", () => {
    const msg = { role: "hookMessage", customType: "c", content: "x", display: true };
    const records = deepFreeze([
      { ...header, version: 2 },
      { type: "message", id: "a", parentId: null, message: msg },
      { type: "custom_message", id: "b", parentId: "a", message: { role: "hookMessage" } },
    ]);
    const result = migrateRecords(records, env());
    expect(result.records[0]).toEqual({ ...header, version: 3 });
    expect(result.records[1]).toEqual({ ...records[1], message: { ...msg, role: "custom" } });
    expect(Object.keys((result.records[1] as { message: object }).message)[0]).toBe("role");
    expect(result.records[2]).toBe(records[2]);
  });

  it("resolves a forward firstKeptEntryIndex that R1.6 leaves out (W11)", async () => {
    const records = [
      header,
      { type: "message", message: { role: "user" } },
      { type: "compaction", summary: "s", firstKeptEntryIndex: 3, tokensBefore: 1 },
      { type: "message", message: { role: "user" } },
    ];
    const ours = migrateRecords(records, env());
    const [, , compaction, target] = ours.records as unknown as JsonRecord[];
    expect(compaction?.firstKeptEntryId).toBe(target?.id);
    expect(ours.diagnostics).toEqual([]);
    const theirs = (await referenceMigration(records)) as JsonRecord[];
    // R1.6 reads the target's id before it exists: an own property holding `undefined`,
    // which JSON.stringify leaves out.
    expect(theirs[2]?.firstKeptEntryId).toBeUndefined();
    expect(JSON.stringify(theirs[2])).not.toContain("firstKeptEntryId");
    const { firstKeptEntryId: _, ...withoutIt } = ours.records[2] as unknown as JsonRecord;
    expect(normaliseIds([withoutIt])).toEqual(normaliseIds([theirs[2]]));
  });

  it("reports firstKeptEntryIndex pointing at the header or nowhere, as R1.6 leaves them", async () => {
    const records = [
      header,
      { type: "message", message: { role: "user" } },
      { type: "compaction", firstKeptEntryIndex: 0 },
      { type: "compaction", firstKeptEntryIndex: 99 },
      { type: "compaction", firstKeptEntryIndex: -1 },
      { type: "compaction", firstKeptEntryIndex: 1.5 },
      { type: "compaction", firstKeptEntryIndex: "1" },
      { type: "compaction", firstKeptEntryIndex: null },
      { type: "compaction", firstKeptEntryIndex: 2 },
    ];
    const ours = migrateRecords(records, env());
    expect(ours.diagnostics.map((d) => [d.recordIndex, d.kind])).toEqual([
      [6, "first-kept-entry-index-not-a-number"],
      [7, "first-kept-entry-index-not-a-number"],
      [2, "first-kept-entry-index-header"],
      [3, "first-kept-entry-index-out-of-range"],
      [4, "first-kept-entry-index-out-of-range"],
      [5, "first-kept-entry-index-out-of-range"],
    ]);
    const theirs = await referenceMigration(records);
    expect(JSON.stringify(normaliseIds(ours.records))).toBe(JSON.stringify(normaliseIds(theirs)));
  });

  it("keeps existing ids and parentIds of a version-less header (W10)", async () => {
    const records = [
      header,
      { type: "message", id: "a1", parentId: null, message: { role: "user" } },
      { type: "message", id: "b1", parentId: "a1", message: { role: "assistant" } },
      { type: "message", id: "b2", parentId: "a1", message: { role: "assistant" } },
      { type: "label", id: "l1", parentId: "b2", targetId: "b1", label: "keep" },
      { type: "message", message: { role: "user" } },
      { type: "message", id: "c1", message: { role: "user" } },
      { type: "message", parentId: "b1", message: { role: "user" } },
    ];
    const result = migrateRecords(deepFreeze(records), env());
    const entries = entriesOf(result.records);
    expect(entries.slice(0, 4)).toEqual(records.slice(1, 5));
    expect(entries[4]?.parentId).toBe("l1");
    expect(entries[5]).toMatchObject({ id: "c1", parentId: entries[4]?.id });
    expect(entries[6]?.parentId).toBe("b1");
    expect(Object.keys(entries[6] as object).at(-1)).toBe("id");
    // R1.6 flattens the tree: b2's parent becomes b1 and every id is replaced.
    const theirs = entriesOf((await referenceMigration(records)) as FileEntry[]);
    expect(theirs[2]?.parentId).toBe(theirs[1]?.id);
    expect(theirs.map((e) => e.id)).not.toContain("a1");
  });

  it("never reuses an existing or already-assigned id, even when the RNG repeats (W11)", () => {
    const draws = ["11111111", "11111111", "22222222", "22222222", "22222222", "33333333"];
    let n = 0;
    const repeating: SessionEnv = {
      ...createDeterministicEnv(),
      randomUUID: () => `${draws[Math.min(n++, draws.length - 1)]}-0000-4000-8000-000000000000`,
    };
    const records = [
      header,
      { type: "x", id: "11111111", parentId: null },
      { type: "x" },
      { type: "x" },
    ];
    const ids = entriesOf(migrateRecords(records, repeating).records).map((e) => [
      e.id,
      e.parentId,
    ]);
    expect(ids).toEqual([
      ["11111111", null],
      ["22222222", "11111111"],
      ["33333333", "22222222"],
    ]);
  });

  it("treats every session record as header-like and skips values that are not objects", () => {
    const records = [
      { type: "x" },
      header,
      42 as unknown as JsonRecord,
      { type: "session", id: "s2", version: 5 },
      { type: "y" },
    ];
    const result = migrateRecords(records, env());
    const [x, h, n, s2, y] = result.records as unknown as JsonRecord[];
    expect(x?.parentId).toBe(null);
    expect(h).toEqual({ ...header, version: 3 });
    expect(n).toBe(42);
    expect(s2).toEqual({ type: "session", id: "s2", version: 3 });
    expect(y?.parentId).toBe(x?.id);
  });

  it("is deterministic for a given env", () => {
    const records = documentRecords(parseJsonl(corpus("large-session.jsonl")));
    expect(migrateRecords(records, env()).records).toEqual(migrateRecords(records, env()).records);
  });
});

describe("migrateDocument", () => {
  it("returns the same document when nothing changes, and line numbers on diagnostics", () => {
    const v3 = parseJsonl('{"type":"session","version":3,"id":"s"}\n{"type":"x","id":"a"}\n');
    expect(migrateDocument(v3, env()).document).toBe(v3);
    const v1 = parseJsonl(
      '{"type":"session","id":"s"}\nbad\n{"type":"compaction","firstKeptEntryIndex":0}\n',
    );
    const result = migrateDocument(v1, env());
    expect(result.diagnostics).toMatchObject([
      { kind: "first-kept-entry-index-header", recordIndex: 1, line: 3 },
    ]);
    expect(result.document.lines[1]).toBe(v1.lines[1]);
  });
});

describe("migrateSessionEntries (reference-compatible)", () => {
  it("replaces the array's elements in place without mutating the old objects", () => {
    const msg = { type: "message", timestamp: "t", message: { role: "hookMessage" } };
    const entries = [
      { type: "session", id: "s", timestamp: "t", cwd: "/w" },
      msg,
    ] as unknown as FileEntry[];
    const before = structuredClone(entries);
    const array = entries;
    migrateSessionEntries(entries, env());
    expect(entries).toBe(array);
    expect(entries[0]).toMatchObject({ version: 3 });
    expect(entries[1]).toMatchObject({ parentId: null, message: { role: "custom" } });
    expect(msg).toEqual(before[1]);
  });

  it("uses the system env by default and does nothing to a v3 array", () => {
    const entries = [{ type: "session", id: "s" }, { type: "x" }] as unknown as FileEntry[];
    migrateSessionEntries(entries);
    expect((entries[1] as unknown as JsonRecord).id).toMatch(HEX8);
    const v3 = [...entries];
    migrateSessionEntries(entries);
    expect(entries).toEqual(v3);
    expect(entries[1]).toBe(v3[1]);
  });
});
