/**
 * Usage totals across sessions: the records SQL selects from PostgreSQL give the plugin's
 * totals (`computeSessionsUsageTotals`) exactly what the same sessions' files give, forked
 * copies counted once on both sides.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { InvalidSessionError, loadEntriesFromFile, SessionConflictError } from "@pi-sessions/core";
import { computeSessionsUsageTotals, type SessionsUsageTotals } from "@pi-sessions/plugins";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { damagedSessionArb, sessionLogArb, sessionToJsonl } from "@pi-sessions/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresSessionStore } from "../src/index.js";
import { connectStore } from "./support/store.js";

let store: PostgresSessionStore;
beforeAll(async () => {
  store = await connectStore();
});
afterAll(() => store.close());

/** A session's file text; sometimes followed by a fork of it (same records, new header). */
const sessionsArb = fc.oneof(
  fc.tuple(sessionLogArb(), fc.boolean(), fc.uuid()).map(([log, fork, forkId]) => {
    const text = sessionToJsonl(log.header, log.entries);
    if (!fork || forkId === log.header.id) return [text];
    const header = { ...log.header, id: forkId, timestamp: "2024-06-01T00:00:00.000Z" };
    return [text, sessionToJsonl(header, log.entries)];
  }),
  damagedSessionArb().map((d) => [d.jsonl]),
);

/**
 * The file's bytes, sometimes with an invalid UTF-8 byte inside the first text of an
 * assistant message: PostgreSQL then keeps that line as bytes, and its usage must still count.
 */
function spoiled(text: string, spoil: boolean): Buffer {
  const bytes = Buffer.from(text, "utf8");
  const at = spoil ? text.indexOf('"text":"', text.indexOf('"role":"assistant"')) : -1;
  if (at < 0 || text.indexOf('"role":"assistant"') < 0) return bytes;
  const cut = Buffer.byteLength(text.slice(0, at + 8), "utf8");
  return Buffer.concat([bytes.subarray(0, cut), Buffer.from([0xff]), bytes.subarray(cut)]);
}

/** Totals keyed by session id instead of path (a file path on one side, a location on the other). */
function byId(totals: SessionsUsageTotals, idOfPath: (path: string) => string) {
  return {
    total: totals.total,
    sessions: totals.sessions.map(({ path: _, ...rest }) => rest),
    diagnostics: totals.diagnostics.map(({ path, ...rest }) => ({
      ...rest,
      id: idOfPath(path ?? ""),
    })),
  };
}

describe("usage totals across sessions", () => {
  it("the records SQL selects give the plugin's totals of the same sessions' files", async () => {
    let records = 0;
    let copied = 0;
    let spoiledFiles = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(sessionsArb, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (groups, spoil) => {
          await store.pool.query(`DELETE FROM ${store.s}.sessions`);
          const dir = tempDir();
          const files: string[] = [];
          const ids = new Set<string>();
          for (const text of groups.flat()) {
            const bytes = spoiled(text, spoil);
            if (bytes.length > Buffer.byteLength(text)) spoiledFiles++;
            const id = await store.importBytes(bytes).catch((error: unknown) => {
              // Not a session (a damaged header), or a second import of the same id.
              if (error instanceof InvalidSessionError || error instanceof SessionConflictError) {
                return undefined;
              }
              throw error;
            });
            if (id === undefined || ids.has(id)) continue;
            ids.add(id);
            // Named by id, so ties of header timestamps sort the same on both sides.
            const file = join(dir, `${id}.jsonl`);
            writeFileSync(file, bytes);
            files.push(file);
          }
          const fromFiles = computeSessionsUsageTotals(
            files.map((path) => ({ path, entries: loadEntriesFromFile(path) })),
          );
          const fromPg = computeSessionsUsageTotals(await store.usageRecords());
          const idOf = (path: string) =>
            path.slice(path.lastIndexOf("/") + 1).replace(/\.jsonl$/, "");
          expect(byId(fromPg, idOf)).toEqual(byId(fromFiles, idOf));
          records += fromPg.total.records;
          copied += fromPg.sessions.reduce((n, x) => n + x.copiedRecords, 0);
        },
      ),
      fcOptions(40),
    );
    console.log(
      `usage: ${records} records counted, ${copied} copies skipped, ${spoiledFiles} files with invalid UTF-8`,
    );
    expect(records).toBeGreaterThan(0);
    expect(spoiledFiles).toBeGreaterThan(0);
  });
});
