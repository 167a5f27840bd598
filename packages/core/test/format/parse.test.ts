import { parseSessionEntries } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import {
  describeNotASession,
  documentIssues,
  documentRecords,
  findHeaderIndex,
  headerVersion,
  isValidHeader,
  type LineIssue,
  type ParsedDocument,
  parseJsonl,
  resolveHeader,
} from "../core-parts.js";
import { loadReference } from "./helpers.js";

const H =
  '{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"}';
const A = '{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user"}}';
const B = '{"type":"message","id":"b","parentId":"a","timestamp":"t","message":{"role":"user"}}';

/** Issues of a document as (line, kind) pairs. */
const issueSummary = (doc: ParsedDocument): [number, LineIssue["kind"]][] =>
  documentIssues(doc).map((i) => [i.line, i.kind]);

describe("parseJsonl (SPEC §2.1, §6.5)", () => {
  it("parses one record per line and keeps line numbers", () => {
    const doc = parseJsonl(`${H}\n${A}\n${B}\n`);
    expect(doc.lines.map((l) => l.line)).toEqual([1, 2, 3]);
    expect(documentRecords(doc).map((r) => r.id)).toEqual(["s1", "a", "b"]);
    expect(doc.endsWithNewline).toBe(true);
    expect(doc.tornTail).toBe(false);
    expect(documentIssues(doc)).toEqual([]);
  });

  it("tolerates CRLF line endings, keeping the \\r in raw", () => {
    const doc = parseJsonl(`${H}\r\n${A}\r\n`);
    expect(documentRecords(doc).map((r) => r.id)).toEqual(["s1", "a"]);
    expect(doc.lines[1]?.raw).toBe(`${A}\r`);
    expect(documentIssues(doc)).toEqual([]);
  });

  it("ignores blank and whitespace-only lines but counts them for line numbers", () => {
    const doc = parseJsonl(`\n  \n${H}\n\t\n\v\n\u00a0\n${A}\n\n`);
    expect(doc.lines.map((l) => l.line)).toEqual([3, 7]);
    expect(documentIssues(doc)).toEqual([]);
  });

  it("counts the last line without a trailing newline", () => {
    const doc = parseJsonl(`${H}\n${A}`);
    expect(documentRecords(doc)).toHaveLength(2);
    expect(doc.endsWithNewline).toBe(false);
    expect(doc.tornTail).toBe(false);
  });

  it("flags a torn last line and keeps its raw text", () => {
    const fragment = A.slice(0, 30);
    const doc = parseJsonl(`${H}\n${fragment}`);
    expect(doc.tornTail).toBe(true);
    expect(doc.endsWithNewline).toBe(false);
    expect(issueSummary(doc)).toEqual([[2, "invalid-json"]]);
    expect(documentIssues(doc)[0]?.raw).toBe(fragment);
  });

  it("does not call a malformed line torn when the text ends with a newline", () => {
    const doc = parseJsonl(`${H}\n${A.slice(0, 30)}\n`);
    expect(doc.tornTail).toBe(false);
    expect(issueSummary(doc)).toEqual([[2, "invalid-json"]]);
  });

  it("keeps garbage before the header as issues", () => {
    const doc = parseJsonl(`garbage line\n${H}\n${A}\n`);
    expect(issueSummary(doc)).toEqual([[1, "invalid-json"]]);
    expect(documentRecords(doc)).toHaveLength(2);
  });

  it("reports JSON that is not an object as not-an-object (W6)", () => {
    const doc = parseJsonl(`${H}\n42\n"str"\n[1,2]\ntrue\nnull\n${A}\n{"x"\n`);
    expect(issueSummary(doc)).toEqual([
      [2, "not-an-object"],
      [3, "not-an-object"],
      [4, "not-an-object"],
      [5, "not-an-object"],
      [6, "not-an-object"],
      [8, "invalid-json"],
    ]);
    expect(documentIssues(doc).map((i) => i.message)).toEqual([
      "got number",
      "got string",
      "got array",
      "got boolean",
      "got null",
      expect.any(String),
    ]);
    expect(documentRecords(doc).map((r) => r.id)).toEqual(["s1", "a"]);
  });

  it("treats a leading BOM as invalid JSON on the load path, as R1.6 does", () => {
    const doc = parseJsonl(`\ufeff${H}\n${A}\n`);
    expect(issueSummary(doc)).toEqual([[1, "invalid-json"]]);
  });

  it("handles empty and whitespace-only texts", () => {
    expect(parseJsonl("")).toEqual({
      lines: [],
      endsWithNewline: false,
      tornTail: false,
      textLength: 0,
    });
    expect(parseJsonl("\n").lines).toEqual([]);
    expect(parseJsonl("\n").endsWithNewline).toBe(true);
    expect(parseJsonl("   ").tornTail).toBe(false);
  });
});

describe("line issues", () => {
  it("keep the whole raw line, whatever its length", () => {
    const raw = "garbage line that goes on and on and on and on and on";
    const [issue] = documentIssues(parseJsonl(`${H}\n${H}\n${raw}\n`));
    expect(issue).toMatchObject({ kind: "invalid-json", line: 3, raw });
  });
});

describe("header helpers (SPEC §2.2)", () => {
  it("isValidHeader needs type session and a string id", () => {
    expect(isValidHeader({ type: "session", id: "x" })).toBe(true);
    expect(isValidHeader({ type: "session", id: 5 })).toBe(false);
    expect(isValidHeader({ type: "message", id: "x" })).toBe(false);
    expect(isValidHeader(null)).toBe(false);
    expect(isValidHeader("session")).toBe(false);
  });

  it("resolveHeader finds the first parsed record, skipping malformed lines before it", () => {
    const doc = parseJsonl(`garbage\n42\n${H}\n${A}\n`);
    const r = resolveHeader(doc);
    expect(r._tag).toBe("Right");
    if (r._tag === "Right") {
      expect(r.right.index).toBe(2);
      expect(r.right.line).toBe(3);
      expect(r.right.header.id).toBe("s1");
    }
  });

  it("resolveHeader explains why a file is not a session", () => {
    const reason = (text: string) => {
      const r = resolveHeader(parseJsonl(text));
      return r._tag === "Left" ? r.left.kind : "ok";
    };
    expect(reason("")).toBe("empty");
    expect(reason("\n")).toBe("no-records");
    expect(reason("  \n garbage \n")).toBe("no-records");
    expect(reason(`${A}\n`)).toBe("invalid-header");
    expect(reason(`${A}\n${H}\n`)).toBe("invalid-header");
    expect(reason('{"type":"session","id":7}\n')).toBe("invalid-header");
    const r = resolveHeader(parseJsonl(`x\n${A}\n`));
    expect(r._tag === "Left" && describeNotASession(r.left)).toBe(
      "line 2: the first record is not a session header",
    );
  });

  it("findHeaderIndex and headerVersion follow the migration rules (SPEC §2.4)", () => {
    expect(findHeaderIndex([{ type: "x" }, { type: "session" }])).toBe(1);
    expect(findHeaderIndex([{ type: "x" }])).toBe(-1);
    expect(headerVersion(undefined)).toBe(1);
    expect(headerVersion({ type: "session", version: null })).toBe(1);
    expect(headerVersion({ type: "session", version: 2 })).toBe(2);
    expect(headerVersion({ type: "session", version: "2" })).toBe(2);
    expect(headerVersion({ type: "session", version: "abc" })).toBeNaN();
  });
});

describe("parseSessionEntries (SPEC §8.6)", () => {
  const cases = {
    crlf: `${H}\r\n${A}\r\n`,
    blanks: `\n\n  ${H}  \n\n${A}\n\n`,
    garbage: `garbage\n${H}\n{"x"\n${A}`,
    bom: `\ufeff${H}\n${A}\n`,
    nbsp: `${H}\n\u00a0${A}\u00a0\n\u00a0\n`,
    headerless: `${A}\n${B}\n`,
    empty: "",
    whitespace: " \n \t ",
  };

  it.each(Object.entries(cases))("matches R1.6 on %s", async (_name, text) => {
    const ref = await loadReference();
    expect(parseSessionEntries(text)).toEqual(ref.parseSessionEntries(text));
  });

  it("skips values that are not objects, unlike R1.6 (W6)", async () => {
    const text = `${H}\n42\n"s"\n[1]\ntrue\nnull\n${A}\n`;
    const ref = await loadReference();
    expect(ref.parseSessionEntries(text)).toHaveLength(7);
    expect(parseSessionEntries(text).map((r) => r.id)).toEqual(["s1", "a"]);
  });
});
