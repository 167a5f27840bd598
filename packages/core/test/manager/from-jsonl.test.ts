import { InvalidSessionError, SessionManager } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { HEADER } from "./fixtures.js";

const entry = (id: string, parentId: string | null) =>
  JSON.stringify({
    type: "custom",
    customType: "x",
    id,
    parentId,
    timestamp: "2025-01-01T10:00:00.000Z",
  });

describe("SessionManager.fromJsonl (load from text, SPEC §6.5, W4–W6)", () => {
  it("reports malformed and non-object lines with line numbers and loads the rest", () => {
    const text = [
      "garbage before",
      HEADER,
      entry("a", null),
      "THIS LINE IS MALFORMED",
      "42",
      "",
      entry("b", "a"),
      '{"type":"custom","id":"c","par',
    ].join("\n");
    const sm = SessionManager.fromJsonl(text);
    expect(sm.getEntries().map((e) => e.id)).toEqual(["a", "b"]);
    expect(sm.getLeafId()).toBe("b");
    expect(sm.getCwd()).toBe("/tmp/proj");
    const d = sm.getLoadDiagnostics().map((x) => [x.kind, x.line]);
    expect(d).toEqual([
      ["invalid-json", 1],
      ["invalid-json", 4],
      ["not-an-object", 5],
      ["invalid-json", 8],
    ]);
  });

  it("CRLF endings load normally", () => {
    const sm = SessionManager.fromJsonl(`${HEADER}\r\n${entry("a", null)}\r\n`);
    expect(sm.getEntryCount()).toBe(1);
    expect(sm.getLoadDiagnostics()).toEqual([]);
  });

  it("throws the reference's message when the first record is not a header", () => {
    for (const text of ["\n", "garbage", entry("a", null), `${entry("a", null)}\n${HEADER}`]) {
      expect(() => SessionManager.fromJsonl(text)).toThrow(InvalidSessionError);
      expect(() => SessionManager.fromJsonl(text)).toThrow(
        "Session file is not a valid pi session",
      );
    }
  });

  it("migrates a v1 file in memory, with a forward firstKeptEntryIndex resolved (W11)", () => {
    const v1 = [
      '{"type":"session","id":"v1","timestamp":"2025-01-01T10:00:00.000Z","cwd":"/p"}',
      '{"type":"message","timestamp":"2025-01-01T10:00:01.000Z","message":{"role":"user","content":"q","timestamp":1}}',
      '{"type":"compaction","timestamp":"2025-01-01T10:00:02.000Z","summary":"S","firstKeptEntryIndex":3,"tokensBefore":1}',
      '{"type":"message","timestamp":"2025-01-01T10:00:03.000Z","message":{"role":"user","content":"kept","timestamp":3}}',
    ].join("\n");
    const sm = SessionManager.fromJsonl(v1);
    const [u, k, kept] = sm.getEntries();
    expect(sm.getHeader()?.version).toBe(3);
    expect(k).toMatchObject({ parentId: u?.id, firstKeptEntryId: kept?.id });
    expect(sm.buildSessionContext().messages.map((m) => m.role)).toEqual([
      "compactionSummary",
      "user",
    ]);
  });
});
