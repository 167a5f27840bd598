import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { openSessionIndex, type SearchFilters } from "../src/index.js";
import { searchIndex } from "../src/search.js";
import { BROAD_WINDOW, EXACT_RANK_MAX } from "../src/search-rank.js";
import { sessionText, type Turn } from "./session-text.js";
import { openLook } from "./sqlite-look.js";

test("a query of more matches than are ranked exactly takes the best of its newest matches", async () => {
  const root = join(tempDir(), "sessions");
  mkdirSync(join(root, "--a--"), { recursive: true });
  const path = join(root, "--a--", "big.jsonl");
  const size = EXACT_RANK_MAX + 1000;
  const turns: Turn[] = Array.from({ length: size }, (_, i) => ({
    user: `common words of entry number ${i % 97}`,
  }));
  // The best match of all is older than the window; the best of the window comes second.
  const old = 100;
  const recent = size - 100;
  turns[old] = { user: "common common common common common rare" };
  turns[recent] = { user: "common common common" };
  writeFileSync(path, sessionText("55555555-cccc", "/work/a", turns));
  const index = openSessionIndex({ file: join(tempDir(), "index.sqlite") });
  const hits = await index.search("common", { dir: root });
  expect(hits).toHaveLength(20);
  // Entry i is on line i + 2 (the header is line 1).
  expect(hits[0]).toMatchObject({
    path,
    line: recent + 2,
    snippet: expect.stringContaining("[common] [common]"),
  });
  expect(hits.every((h) => h.snippet.includes("[common]"))).toBe(true);
  expect(hits.every((h) => h.line >= size + 2 - BROAD_WINDOW)).toBe(true);
  const ranks = hits.map((h) => h.rank);
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  // Equal scores are ordered by line: the same search gives the same page every time.
  expect(await index.search("common", { dir: root, refresh: false })).toEqual(hits);
  // A page longer than the window widens it.
  const long = await index.search("common", { dir: root, limit: BROAD_WINDOW + 10 });
  expect(long).toHaveLength(BROAD_WINDOW + 10);
  expect(long[0]).toMatchObject({ path, line: recent + 2 });
  // A narrow query is ranked over all its matches again: the old entry is found.
  expect(await index.search("common rare", { dir: root })).toMatchObject([{ line: old + 2 }]);
  expect((await index.search("common", { dir: root, role: "assistant" })).length).toBe(0);
  index.close();
});

function twoSessions() {
  const root = join(tempDir(), "sessions");
  mkdirSync(join(root, "--a--"), { recursive: true });
  mkdirSync(join(root, "--b--"));
  const turns = (word: string, model: string): Turn[] =>
    Array.from({ length: 8 }, (_, i) =>
      i % 2 === 0
        ? { user: `a ${word} question ${"penguin ".repeat(1 + (i % 3))}` }
        : { assistant: `an answer about the penguin ${word}`, model },
    );
  const a = join(root, "--a--", "a.jsonl");
  const b = join(root, "--b--", "b.jsonl");
  writeFileSync(a, sessionText("aaaa1111", "/work/a", turns("walrus", "model-a")));
  writeFileSync(b, sessionText("bbbb2222", "/work/b", turns("seal", "model-b")));
  const file = join(tempDir(), "index.sqlite");
  return { root, a, b, file, index: openSessionIndex({ file }) };
}

const BROAD = { exactMax: 2, window: 1000, frequent: 1_000_000 };
const EXACT = { exactMax: 1_000_000, window: 1, frequent: 1_000_000 };

test("a broad ranking keeps every filter the exact one keeps", async () => {
  const { root, file, index } = twoSessions();
  await index.sync(root);
  const db = openLook(file, { readonly: true });
  const found = (filters: SearchFilters, limits: typeof BROAD) =>
    searchIndex(db, root, "penguin", { limit: 100, ...filters }, limits)
      .map((h) => `${h.sessionId}/${h.entryId}`)
      .sort();
  const cases: SearchFilters[] = [
    {},
    { cwd: "/work/b" },
    { role: "assistant" },
    { role: ["user"] },
    { model: "model-a" },
    { since: new Date(Date.UTC(2026, 0, 4)) },
    { until: new Date(Date.UTC(2026, 0, 4)) },
    { session: "bbbb" },
    { session: "aaaa1111", role: "user", since: new Date(Date.UTC(2026, 0, 3)) },
  ];
  for (const filters of cases) {
    const exact = found(filters, EXACT);
    expect(exact.length).toBeGreaterThan(0);
    expect(found(filters, BROAD)).toEqual(exact);
  }
  expect(found({}, BROAD)).toHaveLength(16);
  expect(found({ role: "custom" }, BROAD)).toEqual([]);
  db.close();
  index.close();
});

test("a broad ranking looks at the newest matches that pass the filters, and never at removed files", async () => {
  const { root, b, file, index } = twoSessions();
  await index.sync(root);
  const db = openLook(file, { readonly: true });
  const newest = (role: string | null, n: number) =>
    (
      db
        .prepare(
          `SELECT f.session_id || '/' || e.id AS hit FROM entry_text
          JOIN entries e ON e.rowid = entry_text.rowid JOIN files f ON f.id = e.file_id
          WHERE entry_text MATCH 'penguin' AND (@role IS NULL OR e.role = @role)
          ORDER BY entry_text.rowid DESC LIMIT @n`,
        )
        .all({ role, n }) as { hit: string }[]
    )
      .map((r) => r.hit)
      .sort();
  const found = (filters: SearchFilters, window: number) =>
    searchIndex(
      db,
      root,
      "penguin",
      { limit: window, ...filters },
      {
        exactMax: 2,
        window,
        frequent: 1_000_000,
      },
    )
      .map((h) => `${h.sessionId}/${h.entryId}`)
      .sort();
  expect(found({}, 3)).toEqual(newest(null, 3));
  expect(found({ role: "user" }, 3)).toEqual(newest("user", 3));
  // The entries that say "penguin" three times rank first, the shorter one before the other.
  expect(searchIndex(db, root, "penguin", { limit: 2 }, BROAD)).toMatchObject([
    { sessionId: "bbbb2222", entryId: "e2" },
    { sessionId: "aaaa1111", entryId: "e2" },
  ]);
  rmSync(b);
  await index.sync(root);
  const left = searchIndex(db, root, "penguin", { limit: 100 }, BROAD);
  expect(left).toHaveLength(8);
  expect(left.every((h) => h.sessionId === "aaaa1111")).toBe(true);
  db.close();
  index.close();
});

test("a query of few matches leaves its frequent words out of the score, not out of the matches", async () => {
  const { root, file, index } = twoSessions();
  await index.sync(root);
  const db = openLook(file, { readonly: true });
  // "penguin" is in all 16 entries, "walrus" in the 8 of one session: with 9 as the frequent
  // threshold only "walrus" is weighed; every hit still holds both words.
  const limits = { exactMax: 100, window: 1, frequent: 9 };
  const hits = searchIndex(db, root, "walrus penguin", { limit: 100 }, limits);
  const exact = searchIndex(db, root, "walrus penguin", { limit: 100 }, EXACT);
  const key = (h: { sessionId: string; entryId: string | null }) => `${h.sessionId}/${h.entryId}`;
  expect(hits.map(key).sort()).toEqual(exact.map(key).sort());
  expect(hits).toHaveLength(8);
  expect(hits.every((h) => h.snippet.includes("[walrus]") && h.snippet.includes("[penguin]"))).toBe(
    true,
  );
  const reference = db
    .prepare(
      `SELECT f.session_id || '/' || e.id AS hit FROM entry_text
      JOIN entries e ON e.rowid = entry_text.rowid JOIN files f ON f.id = e.file_id
      WHERE entry_text MATCH '"walrus"' ORDER BY bm25(entry_text), f.path, e.line`,
    )
    .all() as { hit: string }[];
  expect(hits.map(key)).toEqual(reference.map((r) => r.hit));
  // Only frequent words: the broad ranking's score, over the query's matches.
  const common = searchIndex(
    db,
    root,
    "walrus penguin",
    { limit: 100 },
    { ...limits, frequent: 2, window: 100 },
  );
  expect(common.map(key).sort()).toEqual(exact.map(key).sort());
  db.close();
  index.close();
});
