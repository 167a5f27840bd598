/**
 * The structural summary a listing can gather in its one pass over each file (`withShape`):
 * every irregularity is flagged, a regular file's counts equal a full load's and the full
 * load finds nothing wrong in it (checked on random, often damaged, files), and the plain
 * listing and cache are unchanged by it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeterministicEnv } from "../../src/env/env.js";
import { replayState } from "../../src/projections/builtins.js";
import { structuralDiagnostics } from "../../src/state/diagnostics.js";
import { listAllSessions, listSessionsInDir } from "../../src/store/listing.js";
import { SessionInfoCache } from "../../src/store/listing-cache.js";
import { readSessionFile } from "../../src/store/read-session.js";
import { readSessionInfoSync } from "../../src/store/session-info.js";
import type { SessionShape } from "../../src/store/session-shape.js";
import { header, makeTempDir, messageEntry, removeDir, writeLines } from "./listing-fixtures.js";

const SETTINGS = fcOptions(300);
const NUM_RUNS = SETTINGS.numRuns;

let work: string;
let fileNo = 0;

beforeAll(() => {
  work = makeTempDir("session-shape");
});
afterAll(() => removeDir(work));

const HEADER = JSON.stringify(header("s", "/p", { version: 3 }));

/** An entry line with the given id and parent (`undefined` leaves the key out). */
function entry(id: unknown, parentId: unknown, type = "custom"): string {
  const e: Record<string, unknown> = { type, timestamp: "2025-01-01T00:00:01.000Z" };
  if (id !== undefined) e.id = id;
  if (parentId !== undefined) e.parentId = parentId;
  if (type === "custom") e.customType = "x";
  if (type === "message") e.message = { role: "user", content: `hi ${String(id)}`, timestamp: 1 };
  return JSON.stringify(e);
}

/** Writes `text` as a new file and returns its shape (throws if it is not a session). */
function shapeOfText(text: string): SessionShape {
  const path = join(work, `f${fileNo++}.jsonl`);
  writeFileSync(path, text);
  const info = readSessionInfoSync(path, true)?.info;
  if (info == null || !("shape" in info)) throw new Error("not a session");
  return info.shape;
}

const shapeOf = (lines: string[]): SessionShape => shapeOfText(`${lines.join("\n")}\n`);

/** What a full load says about a file: its counts and how many problems it reports. */
function fullLoad(path: string): { entries: number; branches: number; problems: number } {
  const read = readSessionFile(path, createDeterministicEnv({ seed: 1 }));
  if (read.kind !== "loaded") throw new Error(read.kind);
  const { loaded } = read;
  const state = replayState(loaded.header, loaded.entries);
  const problems =
    loaded.diagnostics.length +
    structuralDiagnostics(state.log).length +
    (loaded.migrated ? 1 : 0) +
    (loaded.needsNewline ? 1 : 0);
  const parents = new Set<string>();
  for (const e of loaded.entries) if (typeof e.parentId === "string") parents.add(e.parentId);
  const ids = new Set(loaded.entries.map((e) => e.id));
  let branches = 0;
  for (const id of ids) if (!parents.has(id)) branches++;
  return { entries: loaded.entries.length, branches, problems };
}

describe("shape of a regular file", () => {
  it("counts entries of every type and the entries nothing continues from", () => {
    const shape = shapeOf([
      HEADER,
      entry("a", null, "message"),
      entry("b", "a"),
      entry("c", "b", "message"),
      entry("d", "a"), // a second branch from a
      entry("e", null), // a second root
    ]);
    expect(shape).toEqual({ regular: true, entries: 5, branches: 3, size: expect.any(Number) });
  });

  it("takes blank lines, CRLF endings, odd parent values and future versions as regular", () => {
    const v4 = JSON.stringify(header("s", "/p", { version: 4 }));
    const lines = [v4, "", entry("a", 7), "   ", entry("b", "a"), entry("c", undefined)];
    const text = `${lines.join("\r\n")}\r\n`;
    expect(shapeOfText(text)).toEqual({
      regular: true,
      entries: 3,
      branches: 2,
      size: Buffer.byteLength(text),
    });
  });
});

describe("shape of an irregular file", () => {
  const cases: [string, string[]][] = [
    ["legacy-version", [JSON.stringify(header("s", "/p", { version: 2 })), entry("a", null)]],
    ["legacy-version", [JSON.stringify(header("s", "/p", { version: "3" })), entry("a", null)]],
    ["damaged-line", [HEADER, entry("a", null), '{"type":"message","id":"b"']],
    ["damaged-line", ["garbage before the header", HEADER, entry("a", null)]],
    ["damaged-line", [HEADER, "[1,2]", entry("a", null)]],
    ["extra-header", [HEADER, entry("a", null), HEADER]],
    ["missing-id", [HEADER, entry(undefined, null)]],
    ["missing-id", [HEADER, entry(42, null)]],
    ["duplicate-id", [HEADER, entry("a", null), entry("a", null)]],
    ["parent-not-seen", [HEADER, entry("a", "zzz")]], // dangling
    ["parent-not-seen", [HEADER, entry("a", "a")]], // self-parent
    ["parent-not-seen", [HEADER, entry("a", "b"), entry("b", "a")]], // cycle
    ["parent-not-seen", [HEADER, entry("b", "a"), entry("a", null)]], // harmless, still flagged
  ];
  it.each(cases)("flags %s", (irregularity, lines) => {
    expect(shapeOf(lines)).toMatchObject({ regular: false, irregularity });
  });

  it("flags a file that does not end with a newline, after everything else", () => {
    expect(shapeOfText(`${HEADER}\n${entry("a", null)}`)).toMatchObject({
      irregularity: "missing-newline",
    });
    expect(shapeOfText(`${HEADER}\n${entry("a", "x")}`)).toMatchObject({
      irregularity: "parent-not-seen",
    });
  });
});

/** One line of a random file: mostly entries over a small id pool, sometimes damage. */
const lineArb = fc.oneof(
  { weight: 12, arbitrary: fc.constant("entry") },
  { weight: 1, arbitrary: fc.constantFrom('{"type":"message"', "[]", "null", "", "  ", HEADER) },
);

/**
 * A random file: a clean tree (unique ids, parents written first) that some runs then damage
 * by editing a few lines — dropping, duplicating or swapping them, re-parenting, tearing.
 */
const fileArb = fc
  .record({
    size: fc.integer({ min: 0, max: 12 }),
    parents: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
    version: fc.constantFrom<unknown>(3, 3, 3, 3, 2, undefined, "3"),
    // Half the files stay clean, so the regular path is tested as much as the other.
    edits: fc.oneof(
      fc.constant([]),
      fc.array(
        fc.record({
          kind: fc.constantFrom("drop", "dup", "swap", "reparent", "insert", "tear"),
          at: fc.nat(),
          other: fc.nat(),
          line: lineArb,
        }),
        { minLength: 1, maxLength: 3 },
      ),
    ),
    newline: fc.constantFrom(true, true, true, false),
  })
  .map(({ size, parents, version, edits, newline }) => {
    const lines: string[] = [];
    for (let i = 0; i < size; i++) {
      const p = parents[i] ?? 0;
      const parent = i === 0 || p % 4 === 0 ? null : `e${p % i}`;
      lines.push(entry(`e${i}`, parent, p % 3 === 0 ? "message" : "custom"));
    }
    for (const { kind, at, other, line } of edits) {
      const i = lines.length === 0 ? 0 : at % lines.length;
      const j = lines.length === 0 ? 0 : other % lines.length;
      if (kind === "insert" || lines.length === 0) {
        lines.splice(i, 0, line === "entry" ? entry(`e${other % 14}`, `e${at % 14}`) : line);
      } else if (kind === "drop") lines.splice(i, 1);
      else if (kind === "dup") lines.splice(j, 0, lines[i] as string);
      else if (kind === "swap") [lines[i], lines[j]] = [lines[j] as string, lines[i] as string];
      else if (kind === "reparent") lines[i] = entry(`e${i}`, `e${other % 14}`);
      else lines[i] = (lines[i] as string).slice(0, 1 + (other % 40));
    }
    // An undefined version drops the key (JSON), which makes a v1 header.
    const head = JSON.stringify(header("s", "/p", { version }));
    const text = [head, ...lines].join("\n");
    return newline ? `${text}\n` : text;
  });

describe("shape against a full load (property)", () => {
  it(`a regular shape means a problem-free load with the same counts (numRuns ${NUM_RUNS})`, () => {
    let regular = 0;
    let irregular = 0;
    fc.assert(
      fc.property(fileArb, (text) => {
        const path = join(work, `p${fileNo++}.jsonl`);
        writeFileSync(path, text);
        const info = readSessionInfoSync(path, true)?.info;
        if (info == null || !("shape" in info)) return; // not a session (a legacy header needs more fields)
        const { shape } = info;
        const full = fullLoad(path);
        if (shape.regular) {
          regular++;
          expect(full).toEqual({ entries: shape.entries, branches: shape.branches, problems: 0 });
          expect(shape.size).toBe(Buffer.byteLength(text));
        } else {
          irregular++;
          // Only a parent written after its child may flag a file the load finds clean.
          if (full.problems === 0) expect(shape.irregularity).toBe("parent-not-seen");
        }
      }),
      SETTINGS,
    );
    // Both paths were exercised, not just one.
    expect(regular).toBeGreaterThan(NUM_RUNS / 10);
    expect(irregular).toBeGreaterThan(NUM_RUNS / 10);
  });
});

describe("listing with and without shapes", () => {
  it("withShape adds `shape` to each info; the plain listing gives the same infos without it", async () => {
    const root = join(work, "root");
    const dir = join(root, "--p--");
    writeLines(dir, "a.jsonl", [
      header("a", "/p"),
      messageEntry("m", { role: "user", content: "x" }),
    ]);
    writeLines(dir, "b.jsonl", [header("b", "/p"), "{torn"]);
    writeLines(dir, "c.jsonl", ["not a session"]);
    const plain = await listAllSessions(root, { cache: null });
    const shaped = await listAllSessions(root, { cache: null, withShape: true });
    expect(plain.map((i) => Object.hasOwn(i, "shape"))).toEqual([false, false]);
    expect(shaped.map(({ shape, ...info }) => info)).toEqual(plain);
    const byId = new Map(shaped.map((i) => [i.id, i.shape]));
    expect(byId.get("a")).toMatchObject({ regular: true, entries: 1, branches: 1 });
    expect(byId.get("b")).toMatchObject({ regular: false, irregularity: "damaged-line" });
  });

  it("the cache answers a shaped listing only from entries read with shapes", async () => {
    const dir = join(work, "cached");
    writeLines(dir, "a.jsonl", [
      header("a", "/p"),
      messageEntry("m", { role: "user", content: "x" }),
    ]);
    writeLines(dir, "z.jsonl", ["not a session"]);
    const cache = new SessionInfoCache();
    await listSessionsInDir(dir, { cache });
    expect([cache.hits, cache.misses]).toEqual([0, 2]);
    // Read without shapes: the session is read again; the non-session is known already.
    const first = await listSessionsInDir(dir, { cache, withShape: true });
    expect([cache.hits, cache.misses]).toEqual([1, 3]);
    const second = await listSessionsInDir(dir, { cache, withShape: true });
    expect([cache.hits, cache.misses]).toEqual([3, 3]);
    expect(second).toEqual(first);
    expect(second[0]?.shape).toMatchObject({ regular: true, entries: 1 });
    // And a plain listing still gets plain infos from the shaped entries.
    const plain = await listSessionsInDir(dir, { cache });
    expect(Object.hasOwn(plain[0] ?? {}, "shape")).toBe(false);
    expect(plain).toEqual(second.map(({ shape, ...info }) => info));
  });
});
