import { describe, expect, it } from "vitest";
import {
  createHeader,
  parseJsonl,
  serializeDocument,
  serializeDocumentLines,
  serializeRecord,
  serializeRecords,
} from "../core-parts.js";
import { corpus } from "./helpers.js";

describe("serializeRecord (SPEC §2.1)", () => {
  it("writes compact JSON with one newline and drops undefined properties", () => {
    expect(serializeRecord({ a: 1, b: undefined, c: { d: [1, "x"] } })).toBe(
      '{"a":1,"c":{"d":[1,"x"]}}\n',
    );
    expect(serializeRecords([{ a: 1 }, { b: 2 }])).toBe('{"a":1}\n{"b":2}\n');
    expect(serializeRecords([])).toBe("");
  });
});

describe("createHeader (SPEC §2.2)", () => {
  it("uses the key order type, version, id, timestamp, cwd, parentSession", () => {
    const h = createHeader({
      parentSession: "/p.jsonl",
      cwd: "/w",
      timestamp: "2025-01-01T00:00:00.000Z",
      id: "s",
    });
    expect(Object.keys(h)).toEqual(["type", "version", "id", "timestamp", "cwd", "parentSession"]);
    expect(h.version).toBe(3);
  });

  it("leaves parentSession out when undefined and accepts a version", () => {
    const h = createHeader({ id: "s", timestamp: "t", cwd: "/w", version: 2 });
    expect(serializeRecord(h)).toBe(
      '{"type":"session","version":2,"id":"s","timestamp":"t","cwd":"/w"}\n',
    );
    expect(Object.hasOwn(h, "parentSession")).toBe(false);
  });
});

describe("serializeDocument (W4, I5)", () => {
  it("round-trips a file we wrote, garbage lines included, byte for byte", () => {
    const text = [
      "garbage before the header",
      '{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w"}',
      '{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"é"}}',
      "THIS LINE IS MALFORMED",
      "42",
      "[1,2]",
      '{"type":"x","id":"b","parentId":"a","n":1.5}',
      '{"type":"x","id":"c","parentId":"b"',
      "",
    ].join("\n");
    expect(serializeDocument(parseJsonl(text))).toBe(text);
  });

  it.each(["before-compaction.jsonl", "large-session.jsonl", "ref-1.6-branched.jsonl"])(
    "round-trips corpus file %s",
    (name) => {
      const text = corpus(name);
      expect(serializeDocument(parseJsonl(text))).toBe(text);
    },
  );

  it("normalises number spellings and escapes of records, not of raw lines (SPEC §2.5)", () => {
    const text = '{"a":1.50,"b":1e2,"c":"\\u00e9"}\n{"a":1.50\n';
    expect(serializeDocument(parseJsonl(text))).toBe('{"a":1.5,"b":100,"c":"é"}\n{"a":1.50\n');
  });

  it("drops blank lines, strips CR from records, and ends a torn tail with a newline", () => {
    const text = '{"a":1}\r\n\n  \ngarbage\r\n{"b":2}\n{"c"';
    const lines = serializeDocumentLines(parseJsonl(text));
    expect(lines).toEqual(['{"a":1}\n', "garbage\r\n", '{"b":2}\n', '{"c"\n']);
    expect(serializeDocument(parseJsonl(text))).toBe(lines.join(""));
  });
});
