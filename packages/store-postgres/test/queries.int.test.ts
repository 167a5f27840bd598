/**
 * `list`, `listAll` and `findById` by SQL give what the file store's listing gives for the
 * same sessions: generated sessions (damaged ones among them, several working directories)
 * are imported and also written as files, and both listings are compared field by field.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { damagedSessionArb, sessionLogArb, sessionToJsonl } from "@pi-sessions/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresSessionStore } from "../src/index.js";
import { comparable } from "./support/listing.js";
import { connectStore } from "./support/store.js";

/** The property's run count (`FC_RUNS` honoured), named in its title. */
const RUNS = fcOptions(20);

let store: PostgresSessionStore;
beforeAll(async () => {
  store = await connectStore();
});
afterAll(() => store.close());

const sessionText = fc.oneof(
  sessionLogArb().map((log) => sessionToJsonl(log.header, log.entries)),
  damagedSessionArb().map((d) => d.jsonl),
);

describe("queries by SQL", () => {
  it("list, listAll and findById agree with the file store's listing of the same sessions", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(sessionText, { minLength: 1, maxLength: 6 }), async (texts) => {
        await store.pool.query(`DELETE FROM ${store.s}.sessions`);
        const dir = tempDir();
        const cwds = new Set<string>();
        const ids = new Set<string>();
        for (const [i, text] of texts.entries()) {
          // Damaged lines may come before the header: it is the first session record.
          const header = text
            .split("\n")
            .map((l) => {
              try {
                return JSON.parse(l);
              } catch {
                return undefined;
              }
            })
            .find((r) => r?.type === "session");
          if (ids.has(header.id)) continue;
          ids.add(header.id);
          cwds.add(header.cwd);
          await store.importBytes(Buffer.from(text, "utf8"));
          writeFileSync(join(dir, `s${i}.jsonl`), text);
        }
        expect(comparable(await store.listAll())).toEqual(
          comparable(await SessionManager.listAll(dir)),
        );
        for (const cwd of cwds) {
          expect(comparable(await store.list(cwd))).toEqual(
            comparable(await SessionManager.list(cwd, dir)),
          );
        }
        for (const id of ids) expect((await store.findById(id))?.id).toBe(id);
        expect(await store.findById("no-such-session")).toBeUndefined();
      }),
      fcOptions(40),
    );
  });

  it(`list(cwd) keeps the sessions core's list keeps, however the directory is spelled (numRuns ${RUNS.numRuns})`, async () => {
    // Spellings of one directory and of others, in headers and in the question: core resolves
    // both sides (`cwdMatches`), so `/p/` and `/p` are one directory; no cwd belongs to none.
    const spellings = ["/p", "/p/", "/p//", "/p/./", "/q/../p", "/q", "/p/r", "", "rel", "~"];
    const spelling = fc.constantFrom(...spellings);
    await fc.assert(
      fc.asyncProperty(
        fc.array(spelling, { minLength: 1, maxLength: 6 }),
        spelling,
        async (headerCwds, asked) => {
          await store.pool.query(`DELETE FROM ${store.s}.sessions`);
          const dir = tempDir();
          for (const [i, cwd] of headerCwds.entries()) {
            const id = `cwd-${i}`;
            const header = {
              type: "session",
              version: 3,
              id,
              timestamp: `2024-01-0${i + 1}T00:00:00Z`,
              cwd,
            };
            const text = `${JSON.stringify(header)}\n`;
            await store.importBytes(Buffer.from(text, "utf8"));
            writeFileSync(join(dir, `s${i}.jsonl`), text);
          }
          const listed = comparable(await store.list(asked));
          expect(listed).toEqual(comparable(await SessionManager.list(asked, dir)));
        },
      ),
      RUNS,
    );
    await store.pool.query(`DELETE FROM ${store.s}.sessions`);
    const sm = SessionManager.withStore(store, "/p/");
    sm.appendMessage({ role: "user", content: "in /p", timestamp: 1 });
    await sm.flush();
    sm.close();
    expect((await store.list("/p")).map((i) => i.id)).toEqual([sm.getSessionId()]);
    expect((await store.list("/p/")).map((i) => i.id)).toEqual([sm.getSessionId()]);
  });

  it("a session written through the manager lists with its name, first message and counts", async () => {
    await store.pool.query(`DELETE FROM ${store.s}.sessions`);
    const sm = SessionManager.withStore(store, "/work/listed");
    sm.appendMessage({ role: "user", content: "hello there", timestamp: 1_700_000_000_000 });
    sm.appendSessionInfo("  My session ");
    await sm.flush();
    const [info] = await store.list("/work/listed");
    expect(info).toMatchObject({
      id: sm.getSessionId(),
      name: "My session",
      firstMessage: "hello there",
      allMessagesText: "hello there",
      messageCount: 1,
      path: sm.getSessionFile(),
    });
    expect(info?.modified.getTime()).toBe(1_700_000_000_000);
    sm.close();
  });
});
