/**
 * Header-only discovery on real files: readHeader (with R1.6's 1 MiB boundary), cwdMatches,
 * findMostRecentSession and findSessionById, checked against R1.6 as a black box.
 */
import { mkdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cwdMatches,
  findMostRecentSession,
  findSessionById,
  HEADER_SCAN_LIMIT,
  readHeader,
} from "../../src/store/discovery.js";
import {
  type GeneratedFile,
  generateSessions,
  header,
  loadReferenceDiscovery,
  makeTempDir,
  type ReferenceDiscovery,
  removeDir,
  writeLines,
} from "./listing-fixtures.js";

const MiB = 1024 * 1024;
let ref: ReferenceDiscovery;
let work: string;
let corpusDir: string;
let corpus: GeneratedFile[];
let sub = 0;
const fresh = () => join(work, `d${sub++}`);

beforeAll(async () => {
  ref = await loadReferenceDiscovery();
  work = makeTempDir("discovery");
  corpusDir = fresh();
  corpus = generateSessions(corpusDir, 260, 31);
});
afterAll(() => removeDir(work));

describe("readHeader", () => {
  it("returns the first record when it is a valid header, skipping blank and malformed lines", () => {
    const dir = fresh();
    const h = header("h1", "/w", { extra: { kept: true } });
    expect(readHeader(writeLines(dir, "a.jsonl", ["", "  ", "{oops", "null", "42", h]))).toEqual(h);
    expect(readHeader(writeLines(dir, "crlf.jsonl", [h], { eol: "\r\n" }))).toEqual(h);
    expect(readHeader(writeLines(dir, "nonl.jsonl", [h], { trailingEol: false }))).toEqual(h);
  });

  it("returns null for non-sessions and unreadable paths", () => {
    const dir = fresh();
    const nulls = [
      writeLines(dir, "empty.jsonl", []),
      writeLines(dir, "noid.jsonl", [{ type: "session", cwd: "/w" }]),
      writeLines(dir, "numid.jsonl", [{ type: "session", id: 1 }]),
      writeLines(dir, "late.jsonl", [{ type: "message" }, header("h", "/w")]),
      writeLines(dir, "bom.jsonl", [`\uFEFF${JSON.stringify(header("h", "/w"))}`]),
      join(dir, "missing.jsonl"),
      dir,
    ];
    for (const path of nulls) expect(readHeader(path)).toBeNull();
  });

  it("reads only the start of a big file", () => {
    const dir = fresh();
    const lines = [header("big", "/w"), ...Array.from({ length: 2000 }, () => "x".repeat(1000))];
    const path = writeLines(dir, "big.jsonl", lines);
    expect(statSync(path).size).toBeGreaterThan(HEADER_SCAN_LIMIT);
    expect(readHeader(path)?.id).toBe("big");
  });

  it("the 1 MiB boundary: a line counts if its \\n is within the limit or the file ends there", () => {
    const dir = fresh();
    mkdirSync(dir);
    const h = JSON.stringify(header("a", "/w"));
    const path = join(dir, "f.jsonl");
    const outcomes: string[] = [];
    for (const end of [MiB - 2, MiB - 1, MiB, MiB + 1]) {
      for (const tail of ['\n{"type":"x"}\n', "", "\n"]) {
        writeFileSync(path, "\n".repeat(end - h.length) + h + tail);
        const theirs = ref.findMostRecentSession(dir) !== null;
        const ours = readHeader(path) !== null;
        expect({ end, tail, ours }).toEqual({ end, tail, ours: theirs });
        outcomes.push(`${end - MiB}${JSON.stringify(tail).length}:${ours}`);
      }
    }
    // Both ways occur, so the boundary itself is tested.
    expect(outcomes.some((o) => o.endsWith("true"))).toBe(true);
    expect(outcomes.some((o) => o.endsWith("false"))).toBe(true);
    // The limit counts bytes, not characters.
    const wide = (n: number) =>
      `${JSON.stringify(header("a", "/w", { pad: "é".repeat(n) }))}\n{}\n`;
    for (const n of [400_000, 600_000]) {
      writeFileSync(path, wide(n));
      expect(readHeader(path) !== null).toBe(ref.findMostRecentSession(dir) !== null);
    }
    // Without a limit, a header of any size is found.
    writeFileSync(path, wide(600_000));
    expect(readHeader(path, Number.POSITIVE_INFINITY)?.id).toBe("a");
  });
});

describe("cwdMatches", () => {
  it("resolves both sides and compares", () => {
    expect(cwdMatches("/w/a", "/w/a")).toBe(true);
    expect(cwdMatches("/w/a/", "/w/x/../a")).toBe(true);
    expect(cwdMatches("~/w", join(homedir(), "w"))).toBe(true);
    expect(cwdMatches("file:///w/a", "/w/a")).toBe(true);
    expect(cwdMatches("/w/a", "/w/b")).toBe(false);
    expect(cwdMatches("/w/a/b", "/w/a-b")).toBe(false);
    expect(cwdMatches("/W/A", "/w/a")).toBe(process.platform === "win32");
  });

  it("a missing or empty header cwd matches unless emptyMatches is false", () => {
    for (const missing of [undefined, "", 7, null]) {
      expect(cwdMatches(missing, "/w")).toBe(true);
      expect(cwdMatches(missing, "/w", false)).toBe(false);
    }
  });

  it("ignores case on Windows", () => {
    const platform = Object.getOwnPropertyDescriptor(process, "platform");
    Object.defineProperty(process, "platform", { value: "win32" });
    try {
      expect(cwdMatches("/W/A", "/w/a")).toBe(true);
    } finally {
      if (platform) Object.defineProperty(process, "platform", platform);
    }
  });
});

describe("findMostRecentSession", () => {
  it("matches R1.6 on a varied corpus, with and without a cwd", () => {
    expect(findMostRecentSession(corpusDir)).toBe(ref.findMostRecentSession(corpusDir));
    for (const cwd of ["/w/a", "/w/b", "/w/a-b", "/w/x/../a", "/none"]) {
      expect(findMostRecentSession(corpusDir, cwd, false)).toBe(
        ref.findMostRecentSession(corpusDir, cwd),
      );
    }
  });

  it("newest mtime first, ties in directory order, invalid files skipped", () => {
    const dir = fresh();
    for (const name of ["b", "a", "c", "d"])
      writeLines(dir, `${name}.jsonl`, [header(name, "/w")], { mtime: 1_700_000_000 });
    writeLines(dir, "newest-invalid.jsonl", ["garbage"], { mtime: 1_800_000_000 });
    writeLines(dir, "newest.txt", [header("txt", "/w")], { mtime: 1_800_000_000 });
    mkdirSync(join(dir, "dir.jsonl"));
    utimesSync(join(dir, "dir.jsonl"), 1_900_000_000, 1_900_000_000);
    expect(findMostRecentSession(dir)).toBe(ref.findMostRecentSession(dir));
    expect(findMostRecentSession(dir, "/w")).toBe(ref.findMostRecentSession(dir, "/w"));
    const older = writeLines(dir, "e.jsonl", [header("e", "/w")], { mtime: 1_750_000_000 });
    expect(findMostRecentSession(dir, "/w")).toBe(older);
    expect(findMostRecentSession(dir, "/elsewhere")).toBeNull();
  });

  it("null for a missing directory, and creates nothing", () => {
    const missing = join(work, "missing", "dir");
    expect(findMostRecentSession(missing)).toBeNull();
    expect(() => statSync(missing)).toThrow();
  });
});

describe("findSessionById", () => {
  it("matches R1.6 for every id of the corpus, shared ids included, with a cwd filter", () => {
    // Every 7th id keeps the test fast; the shared ids and a missing one are always included.
    const unique = [...new Set(corpus.map((f) => f.id))];
    const ids = [...unique.filter((id, i) => i % 7 === 0 || id.startsWith("dup")), "nope"];
    expect(ids.some((id) => id.startsWith("dup"))).toBe(true);
    for (const id of ids) {
      for (const cwd of ["/w/a", "/w/b"]) {
        expect(findSessionById(corpusDir, id, cwd, false)).toBe(
          ref.SessionManager.findById(cwd, id, corpusDir),
        );
      }
    }
  });

  it("without a filter, the first file in directory order with that exact id", () => {
    const dir = fresh();
    const a = writeLines(dir, "a.jsonl", [header("same", "/w/a")]);
    writeLines(dir, "b.jsonl", [header("same", "/w/b")]);
    writeLines(dir, "c.jsonl", [header("SAME", "/w/b")]);
    expect(findSessionById(dir, "same")).toBe(a);
    expect(findSessionById(dir, "same", "/w/b")).toBe(join(dir, "b.jsonl"));
    expect(findSessionById(dir, "sam")).toBeUndefined();
    expect(findSessionById(join(dir, "missing"), "same")).toBeUndefined();
  });
});
