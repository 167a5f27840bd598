/**
 * `store.forkFrom`: a stored session copied into a new one as core's `SessionManager.forkFrom`
 * copies a file, compared in the same run with core's fork of the same file: the same header
 * (but `parentSession`, a location here and a path there), the same entries and tree, the same
 * bytes otherwise; the source only read (a legacy one is migrated in memory, not rewritten);
 * the copy written at once, leased to the store that forked it, and listed with its parent.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import { tempDir } from "@pi-sessions/test-utils";
import { legacySessionArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore, SessionLeasedError } from "../src/index.js";
import { replayView } from "./support/replay.js";
import { connectStore, pgUrl } from "./support/store.js";

let store: PostgresSessionStore;
beforeAll(async () => {
  store = await connectStore({ owner: "forker" });
});
afterAll(() => store.close());

const user = (content: string, timestamp: number) =>
  ({ role: "user", content, timestamp }) as const;

/** A session file with a branch, a label and a name, written by the file store. */
function branchedFile(dir: string, seed: number): string {
  const sm = SessionManager.create("/work/source", dir, {
    env: createDeterministicEnv({ seed }),
  });
  const first = sm.appendMessage(user("first", 1));
  sm.appendMessage(user("second", 2));
  sm.branch(first);
  sm.appendMessage(user("other branch", 3));
  sm.appendLabelChange(first, "start");
  sm.appendSessionInfo("forked source");
  sm.close();
  return sm.getSessionFile() as string;
}

/** The fork of `file` by core and by the store from the same seed; both managers. */
async function bothForks(file: string, seed: number, target: string) {
  const id = await store.importFile(file);
  const fromCore = SessionManager.forkFrom(file, target, tempDir(), {
    env: createDeterministicEnv({ seed }),
  });
  const fromPg = await store.forkFrom(id, target, { env: createDeterministicEnv({ seed }) });
  return { id, fromCore, fromPg };
}

/** A manager's replay with the header's `parentSession` named by `parent`. */
const view = (sm: SessionManager, parent: string) => {
  const v = replayView(sm) as { header: Record<string, unknown> };
  return { ...v, header: { ...v.header, parentSession: parent } };
};

describe("forkFrom", () => {
  it("copies the whole tree under a new header, as core's forkFrom copies the file", async () => {
    const file = branchedFile(tempDir(), 3);
    const { id, fromCore, fromPg } = await bothForks(file, 11, "/work/target/");
    const location = `${store.dir}/${id}`;
    expect(fromPg.getHeader()?.parentSession).toBe(location);
    expect(fromCore.getHeader()?.parentSession).toBe(file);
    expect(fromPg.getHeader()?.cwd).toBe("/work/target");
    expect(fromPg.getEntries()).toHaveLength(5);
    expect(fromPg.getTree()).toHaveLength(1);
    expect(fromPg.getChildren(fromPg.getEntries()[0]?.id as string)).toHaveLength(2);
    expect(view(fromPg, "parent")).toEqual(view(fromCore, "parent"));
    // Byte for byte the file core wrote, but for the parent's name.
    const pgBytes = (await store.exportBytes(fromPg.getSessionId())).toString("utf8");
    const coreBytes = readFileSync(fromCore.getSessionFile() as string, "utf8");
    expect(pgBytes.replace(JSON.stringify(location), "P")).toBe(
      coreBytes.replace(JSON.stringify(file), "P"),
    );
    // The source is as it was imported, and the listing names the fork's parent.
    expect((await store.exportBytes(id)).equals(readFileSync(file))).toBe(true);
    expect((await store.findById(fromPg.getSessionId()))?.parentSessionPath).toBe(location);
    fromCore.close();
    fromPg.close();
  });

  it("the copy is leased to the forking store and takes appends; another owner waits", async () => {
    const file = branchedFile(tempDir(), 4);
    const { fromCore, fromPg } = await bothForks(file, 12, "/work/target");
    fromCore.close();
    const other = await PostgresSessionStore.connect({
      connectionString: pgUrl(),
      schema: store.schema,
      owner: "other",
    });
    await expect(other.load(fromPg.getSessionId())).rejects.toBeInstanceOf(SessionLeasedError);
    fromPg.appendMessage(user("after the fork", 4));
    await fromPg.flush();
    fromPg.close();
    await store.released();
    const reopened = await other.openSession(fromPg.getSessionId());
    expect(reopened.getEntries().at(-1)).toMatchObject({ message: { content: "after the fork" } });
    reopened.close();
    await other.close();
  });

  it("a legacy source is migrated in memory for the copy and left as it is", async () => {
    const [legacy] = fc.sample(legacySessionArb(), { seed: 5, numRuns: 1 });
    const bytes = Buffer.from(legacy?.jsonl ?? "", "utf8");
    const dir = tempDir();
    const file = join(dir, "legacy.jsonl");
    writeFileSync(file, bytes);
    // The store's own env migrates what it loads: seeded like core's for the comparison.
    const seeded = await PostgresSessionStore.connect({
      connectionString: pgUrl(),
      schema: store.schema,
      env: createDeterministicEnv({ seed: 21 }),
    });
    const id = await seeded.importBytes(bytes, "legacy.jsonl");
    const fromCore = SessionManager.forkFrom(file, "/work/target", tempDir(), {
      env: createDeterministicEnv({ seed: 21 }),
    });
    const fromPg = await seeded.forkFrom(id, "/work/target");
    expect(view(fromPg, "parent")).toEqual(view(fromCore, "parent"));
    expect((await seeded.exportBytes(id)).equals(bytes)).toBe(true);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    fromCore.close();
    fromPg.close();
    await seeded.close();
  });
});
