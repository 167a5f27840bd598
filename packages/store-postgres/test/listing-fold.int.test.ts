/**
 * The listing's edge cases, where its rules are easiest to restate wrongly: names of white
 * space only, a `session_info` without a name (it clears the name), sessions without messages,
 * messages without timestamps or content, lines that are not records, lines that are not
 * UTF-8 or hold NUL (kept as bytes, decoded by the client). Generated sessions of
 * such lines list from PostgreSQL exactly as the file store lists their files, and a few
 * chosen ones give the values the listing's rules (SPEC §10.5) say.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresSessionStore } from "../src/index.js";
import { comparable } from "./support/listing.js";
import { connectStore } from "./support/store.js";

let store: PostgresSessionStore;
beforeAll(async () => {
  store = await connectStore();
});
afterAll(() => store.close());

const AT = "2024-05-01T10:00:00.000Z";
const header = (id: string, cwd: string, timestamp: unknown = AT) =>
  JSON.stringify({ type: "session", version: 3, id, timestamp, cwd });

const name = fc.oneof(
  fc.constantFrom("", " ", "  \t ", " padded  ", "plain", "\u3000wide\u3000"),
  fc.string({ maxLength: 6 }),
  fc.constantFrom(null, 7, ["a"]),
);
const content = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.array(
    fc.oneof(
      fc.record({ type: fc.constant("text"), text: fc.string({ maxLength: 6 }) }),
      fc.record({ type: fc.constant("image"), data: fc.constant("AA==") }),
    ),
    { maxLength: 3 },
  ),
  fc.constant(42),
);
const time = fc.option(fc.integer({ min: -5, max: 1_800_000_000_000 }), { nil: undefined });
const entryTime = fc.option(fc.constantFrom(AT, "2025-01-01T00:00:00Z", "not a date"), {
  nil: undefined,
});

/** A user message whose text holds a byte that is not UTF-8, and a line with a NUL byte. */
const BYTE_LINES = [
  Buffer.concat([
    Buffer.from('{"type":"message","id":"b","parentId":null,"message":{"role":"user","content":"a'),
    Buffer.from([0xc3]),
    Buffer.from('b","timestamp":1700000000000}}'),
  ]),
  Buffer.from([0x7b, 0x00, 0xff]),
];

/** One line after the header, as its text or bytes. */
const lineArb = fc.oneof(
  fc.constantFrom(...BYTE_LINES),
  fc
    .record({ name: fc.option(name, { nil: undefined }), ts: entryTime })
    .map(({ name, ts }) =>
      JSON.stringify({ type: "session_info", id: "i", parentId: null, timestamp: ts, name }),
    ),
  fc
    .record({
      role: fc.constantFrom("user", "assistant", "toolResult", "custom"),
      content: fc.option(content, { nil: undefined }),
      time,
      ts: entryTime,
    })
    .map(({ role, content, time, ts }) =>
      JSON.stringify({
        type: "message",
        id: "m",
        parentId: null,
        timestamp: ts,
        message: { role, content, timestamp: time },
      }),
    ),
  fc.constantFrom(
    JSON.stringify({ type: "message", id: "x", parentId: null, timestamp: AT }),
    JSON.stringify({ type: "model_change", id: "c", parentId: null, timestamp: AT }),
    "{not json",
    "[1,2]",
    "",
  ),
);

const NL = Buffer.from("\n");

/** Stores the files in the database and in a directory; returns the directory. */
async function both(files: readonly (string | Buffer)[]): Promise<string> {
  await store.pool.query(`DELETE FROM ${store.s}.sessions`);
  const dir = tempDir();
  for (const [i, file] of files.entries()) {
    const bytes = Buffer.isBuffer(file) ? file : Buffer.from(file, "utf8");
    await store.importBytes(bytes);
    writeFileSync(join(dir, `s${i}.jsonl`), bytes);
  }
  return dir;
}

describe("a listing is core's fold over the stored lines", () => {
  it("lists generated edge-case sessions as the file store lists their files", async () => {
    const sessionArb = fc.record({
      cwd: fc.constantFrom("/work/a", "/work/b"),
      lines: fc.array(lineArb, { maxLength: 8 }),
      newline: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(sessionArb, { minLength: 1, maxLength: 5 }), async (sessions) => {
        const files = sessions.map(({ cwd, lines, newline }, i) => {
          const parts = [header(`s-${i}`, cwd), ...lines].flatMap((l) => [Buffer.from(l), NL]);
          return Buffer.concat(newline ? parts : parts.slice(0, -1));
        });
        const dir = await both(files);
        expect(comparable(await store.listAll())).toEqual(
          comparable(await SessionManager.listAll(dir)),
        );
        for (const cwd of ["/work/a", "/work/b"]) {
          expect(comparable(await store.list(cwd))).toEqual(
            comparable(await SessionManager.list(cwd, dir)),
          );
        }
      }),
      fcOptions(60),
    );
  });

  it("gives the values the listing's rules say for chosen sessions", async () => {
    const info = (name: unknown) =>
      JSON.stringify({ type: "session_info", id: "i", parentId: null, timestamp: AT, name });
    const message = (role: string, text: string, timestamp?: number) =>
      JSON.stringify({
        type: "message",
        id: "m",
        parentId: null,
        timestamp: "2024-05-02T00:00:00.000Z",
        message: { role, content: text, ...(timestamp === undefined ? {} : { timestamp }) },
      });
    await both([
      [header("blank", "/w"), info("   ")].join("\n"),
      [header("cleared", "/w"), info("kept?"), JSON.stringify({ type: "session_info" })].join("\n"),
      [header("named", "/w"), info(" first "), info("  second\t")].join("\n"),
      [header("untimed", "/w"), message("assistant", "hi"), message("user", "question")].join("\n"),
      [header("timed", "/w"), message("user", "", 5), message("user", "later", 9e11)].join("\n"),
    ]);
    const byId = new Map((await store.list("/w")).map((i) => [i.id, i]));
    expect(byId.get("blank")).toMatchObject({ name: undefined, firstMessage: "(no messages)" });
    expect(byId.get("blank")?.modified.toISOString()).toBe(AT);
    expect(byId.get("cleared")?.name).toBeUndefined();
    expect(byId.get("named")?.name).toBe("second");
    expect(byId.get("untimed")).toMatchObject({
      messageCount: 2,
      firstMessage: "question",
      allMessagesText: "hi question",
    });
    // Without a message timestamp the entry's own timestamp is the activity.
    expect(byId.get("untimed")?.modified.toISOString()).toBe("2024-05-02T00:00:00.000Z");
    expect(byId.get("timed")).toMatchObject({ messageCount: 2, firstMessage: "later" });
    expect(byId.get("timed")?.modified.getTime()).toBe(9e11);
  });

  it("falls back to the session's last write when the header's timestamp is not a date", async () => {
    await both([[header("undated", "/w", "someday"), '{"type":"model_change"}'].join("\n")]);
    const [info] = await store.list("/w");
    const row = await store.pool.query<{ updated_at: Date }>(
      `SELECT updated_at FROM ${store.s}.sessions WHERE id = 'undated'`,
    );
    expect(info?.modified).toEqual(row.rows[0]?.updated_at);
    expect(Number.isNaN(info?.created.getTime())).toBe(true);
  });
});
