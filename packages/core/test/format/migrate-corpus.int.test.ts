import {
  CURRENT_SESSION_VERSION,
  createDeterministicEnv,
  type SessionEnv,
} from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import {
  documentIssues,
  documentRecords,
  type JsonRecord,
  migrateDocument,
  migrateRecords,
  parseJsonl,
  serializeDocument,
} from "../core-parts.js";
import { corpus, deepFreeze, entriesOf, normaliseIds, referenceMigration } from "./helpers.js";

const HEX8 = /^[0-9a-f]{8}$/;
const env = (): SessionEnv => createDeterministicEnv({ seed: 7 });

/** A v1 corpus file with one `hookMessage` line added, to exercise v2→v3 on real data. */
function withHookMessage(text: string): string {
  const hook = JSON.stringify({
    type: "message",
    timestamp: "2025-12-08T22:41:05.400Z",
    message: {
      role: "hookMessage",
      customType: "note",
      content: "hi",
      display: true,
      timestamp: 1,
    },
  });
  const lines = text.split("\n");
  lines.splice(3, 0, hook);
  return lines.join("\n");
}

describe.each(["before-compaction.jsonl", "large-session.jsonl"])("v1 corpus %s", (name) => {
  const text = withHookMessage(corpus(name));
  const input = documentRecords(parseJsonl(text));

  it("migrates to v3: every record kept, unique 8-hex ids, one linear chain", () => {
    const result = migrateRecords(deepFreeze(input), env());
    expect(result.fromVersion).toBe(1);
    expect(result.changed).toBe(true);
    expect(result.diagnostics).toEqual([]);
    expect(result.records).toHaveLength(input.length);
    expect(result.records[0]).toMatchObject({ type: "session", version: CURRENT_SESSION_VERSION });
    expect(Object.keys(result.records[0] as object).at(-1)).toBe("version");
    const entries = entriesOf(result.records);
    const ids = entries.map((e) => e.id as string);
    expect(ids.every((id) => HEX8.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    entries.forEach((e, i) => {
      expect(e.parentId).toBe(i === 0 ? null : ids[i - 1]);
      expect(Object.keys(e).slice(-2)).toEqual(
        e.type === "compaction" ? ["parentId", "firstKeptEntryId"] : ["id", "parentId"],
      );
    });
  });

  it("resolves firstKeptEntryIndex against the records with the header at 0", () => {
    const result = migrateRecords(input, env());
    input.forEach((r, i) => {
      if (r.type !== "compaction") return;
      const out = result.records[i] as unknown as JsonRecord;
      expect(out).not.toHaveProperty("firstKeptEntryIndex");
      const target = result.records[r.firstKeptEntryIndex as number] as unknown as JsonRecord;
      expect(out.firstKeptEntryId).toBe(target.id);
    });
  });

  it("renames hookMessage to custom without touching the input", () => {
    const result = migrateRecords(input, env());
    const roles = result.records.map((r) => (r.type === "message" ? r.message.role : undefined));
    expect(roles).not.toContain("hookMessage");
    expect(roles).toContain("custom");
    expect(input.filter((r) => (r.message as JsonRecord)?.role === "hookMessage")).toHaveLength(1);
  });

  it("is JSON-equal to R1.6's migration, key order included, after id normalisation", async () => {
    const ours = migrateRecords(input, env()).records;
    const theirs = await referenceMigration(input);
    expect(JSON.stringify(normaliseIds(ours))).toBe(JSON.stringify(normaliseIds(theirs)));
  });

  it("migrateDocument keeps malformed lines word for word in place (W4)", () => {
    const lines = text.split("\n");
    lines.splice(10, 0, "THIS LINE IS MALFORMED");
    lines.splice(1, 0, "42");
    const damaged = lines.join("\n");
    const doc = parseJsonl(damaged);
    const result = migrateDocument(doc, env());
    expect(result.changed).toBe(true);
    const rewritten = serializeDocument(result.document);
    const out = rewritten.split("\n");
    expect(out).toHaveLength(lines.filter((l) => l.trim() !== "").length + 1);
    expect(out[1]).toBe("42");
    expect(out[11]).toBe("THIS LINE IS MALFORMED");
    const reparsed = parseJsonl(rewritten);
    expect(documentIssues(reparsed).map((i) => [i.line, i.kind])).toEqual([
      [2, "not-an-object"],
      [12, "invalid-json"],
    ]);
    expect(documentRecords(reparsed)).toEqual(documentRecords(result.document));
    expect(migrateDocument(reparsed, env()).changed).toBe(false);
  });
});
