/**
 * File → PostgreSQL → file: every byte kept (unparseable lines, lines before the header,
 * invalid UTF-8, NUL bytes, a last line without `\n`), and a session replayed from the
 * database equals the same file replayed by the file store; a legacy session, migrated as it
 * loads, is written back exactly as the file store rewrites the file.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDeterministicEnv, InvalidSessionError, SessionManager } from "@pi-sessions/core";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { CORPUS_DIR } from "@pi-sessions/test-utils/corpus";
import { damagedSessionArb, garbageLineArb, legacySessionArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { expectSameReplay } from "./support/replay.js";
import { connectStore } from "./support/store.js";

let store: PostgresSessionStore;
beforeAll(async () => {
  store = await connectStore();
});
afterAll(() => store.close());

/**
 * Imports `bytes` and checks the export is identical; then opens the session from the
 * database and from a file of the same bytes (migration ids from the same seeded stream), and
 * checks both replays agree and the database holds what the file store left in the file.
 */
async function roundTrip(bytes: Buffer, name = "s.jsonl", seed = 1): Promise<void> {
  const seeded = await PostgresSessionStore.connect({
    pool: store.pool,
    schema: store.schema,
    env: createDeterministicEnv({ seed }),
  });
  const id = await seeded.importBytes(bytes, name);
  try {
    expect((await seeded.exportBytes(id)).equals(bytes)).toBe(true);
    const file = join(tempDir(), name);
    writeFileSync(file, bytes);
    const fromFile = SessionManager.open(file, undefined, undefined, {
      env: createDeterministicEnv({ seed }),
    });
    const fromPg = await seeded.openSession(id);
    try {
      expectSameReplay(fromFile, fromPg);
    } finally {
      fromFile.close();
      fromPg.close();
    }
    expect((await seeded.exportBytes(id)).equals(readFileSync(file))).toBe(true);
  } finally {
    await seeded.close();
    await store.pool.query(`DELETE FROM ${store.s}.sessions WHERE id = $1`, [id]);
  }
}

describe("file → PostgreSQL → file", () => {
  it("every corpus file comes back byte for byte and replays as its file", async () => {
    const files = readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) await roundTrip(readFileSync(join(CORPUS_DIR, f)), f);
  });

  it("damaged generated sessions (garbage, torn tails, bad structure) survive byte for byte", async () => {
    await fc.assert(
      fc.asyncProperty(damagedSessionArb(), async (s) => {
        await roundTrip(Buffer.from(s.jsonl, "utf8"));
      }),
      fcOptions(60),
    );
  });

  it("lines that are not UTF-8 or hold NUL bytes, before and after the header, are kept", async () => {
    const junk = fc.oneof(
      garbageLineArb.map((l) => Buffer.from(l, "utf8")),
      fc
        .uint8Array({ minLength: 1, maxLength: 12 })
        .map((a) => Buffer.from(a).filter((b) => b !== 0x0a)),
    );
    let binaryLines = 0;
    await fc.assert(
      fc.asyncProperty(
        damagedSessionArb({ maxDamage: 1 }),
        fc.array(fc.tuple(fc.nat(), junk), { minLength: 1, maxLength: 4 }),
        async (s, inserts) => {
          const lines = s.jsonl.split("\n").map((l) => Buffer.from(l, "utf8"));
          const text = (b: Buffer) =>
            Buffer.from(b.toString("utf8"), "utf8").equals(b) && !b.includes(0);
          binaryLines += inserts.filter(([, b]) => !text(Buffer.from(b))).length;
          for (const [at, bytes] of inserts)
            lines.splice(at % (lines.length + 1), 0, Buffer.from(bytes));
          const joined = Buffer.concat(
            lines.flatMap((l, i) => (i === 0 ? [l] : [Buffer.from("\n"), l])),
          );
          try {
            await roundTrip(joined);
          } catch (error) {
            // A junk line that happens to come first and parse as a header makes no session.
            if (!(error instanceof InvalidSessionError)) throw error;
          }
        },
      ),
      fcOptions(40),
    );
    // The runs did store lines as bytes (the column for what text cannot hold).
    expect(binaryLines).toBeGreaterThan(0);
  });

  it("a legacy session migrates as it loads, and the database then holds the file store's rewrite", async () => {
    await fc.assert(
      fc.asyncProperty(
        legacySessionArb({ garbageLines: true }),
        fc.integer({ min: 1 }),
        (s, seed) => roundTrip(Buffer.from(s.jsonl, "utf8"), "legacy.jsonl", seed),
      ),
      fcOptions(40),
    );
  });

  it("exportToDir writes the file under the file store's name, and pi's manager opens it", async () => {
    const source = readdirSync(CORPUS_DIR).find((f) => f.endsWith(".jsonl")) as string;
    const bytes = readFileSync(join(CORPUS_DIR, source));
    const id = await store.importBytes(bytes, source);
    const dir = tempDir();
    const path = await store.exportToDir(id, dir);
    expect(readFileSync(path).equals(bytes)).toBe(true);
    const header = JSON.parse(bytes.toString("utf8").split("\n")[0] as string);
    expect(path).toBe(join(dir, `${header.timestamp.replace(/[:.]/g, "-")}_${id}.jsonl`));
    const listed = await SessionManager.list(header.cwd, dir);
    expect(listed.map((i) => i.id)).toEqual([id]);
  });

  it("what is not a session is refused with its reason, and nothing is written", async () => {
    const before = await store.pool.query(`SELECT count(*)::int AS n FROM ${store.s}.sessions`);
    for (const text of ["", "not json\n", '{"type":"message","id":"a"}\n']) {
      await expect(store.importBytes(Buffer.from(text), "bad.jsonl")).rejects.toBeInstanceOf(
        InvalidSessionError,
      );
    }
    const after = await store.pool.query(`SELECT count(*)::int AS n FROM ${store.s}.sessions`);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it("importing the same session twice is a conflict, not a silent second copy", async () => {
    const bytes = readFileSync(join(CORPUS_DIR, "ref-1.6-branched.jsonl"));
    const id = await store.importBytes(bytes);
    await expect(store.importBytes(bytes)).rejects.toThrow(/exists already/);
    expect((await store.exportBytes(id)).equals(bytes)).toBe(true);
  });
});
