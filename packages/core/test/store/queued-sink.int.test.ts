/**
 * An asynchronous store behind pi's synchronous API, end to end: a JSONL store whose writes
 * go through `fs/promises` (real, slow-on-purpose IO) on core's `queuedSink`. The fold
 * happens at once, writes land in order, `flush()` says when they are durable, and a failed
 * write puts the manager in a failed state that refuses every later write.
 */
import { readFileSync, rmSync } from "node:fs";
import { appendFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type QueuedWrite,
  queuedSink,
  type SessionEntry,
  type SessionHeader,
  SessionManager,
  type SessionStore,
  SessionStoreFailedError,
  systemEnv,
} from "@pi-sessions/core";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadText, memorySink } from "../core-parts.js";
import { tempDir } from "./helpers.js";

const PARAMS = fcOptions(40);
const RUNS = PARAMS.numRuns;

const line = (record: object) => `${JSON.stringify(record)}\n`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A JSONL store whose every write is asynchronous and waits `delay()` ms first. */
function asyncJsonlStore(dir: string, delay: () => number = () => 0): SessionStore {
  const pathOf = (header: SessionHeader) => join(dir, `${header.id}.jsonl`);
  const writer = (path: string) => async (w: QueuedWrite) => {
    await sleep(delay());
    if (w.kind === "create") {
      const { header, entries } = w.content;
      await writeFile(path, [header, ...entries].map(line).join(""), { flag: "wx" });
    } else {
      await appendFile(path, line(w.entry));
    }
  };
  return {
    persisted: true,
    dir,
    locationOf: pathOf,
    create(header, entries, when) {
      const sink = queuedSink({ location: pathOf(header), write: writer(pathOf(header)) });
      if (when === "now") sink.createWith({ header, entries });
      return sink;
    },
    open(path) {
      const loaded = loadText(readFileSync(path, "utf8"), systemEnv, path);
      return {
        ...loaded,
        sink: queuedSink({ location: path, write: writer(path), written: true }),
      };
    },
    read(path) {
      return loadText(readFileSync(path, "utf8"), systemEnv, path);
    },
  };
}

const user = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });
const records = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as SessionEntry);

describe("an asynchronous store through queuedSink", () => {
  it("folds at once, writes in order, and flush() resolves once the file holds everything", async () => {
    const dir = tempDir();
    const sm = SessionManager.withStore(
      asyncJsonlStore(dir, () => 2),
      "/tmp/p",
    );
    sm.appendModelChange("p", "m");
    const ids = [sm.appendMessage(user("one"))];
    for (let i = 0; i < 20; i++) ids.push(sm.appendMessage(user(`m${i}`)));
    // Synchronous answers before anything is durable: the fold does not wait for the store.
    expect(
      sm
        .getBranch()
        .map((e) => e.id)
        .slice(1),
    ).toEqual(ids);
    await sm.flush();
    const file = sm.getSessionFile() as string;
    expect(records(file).slice(1)).toEqual(sm.getEntries());
    // What the file store reads back is the same session.
    expect(SessionManager.open(file, dir).getEntries()).toEqual(sm.getEntries());
  });

  it(`random write delays never reorder or lose an append (numRuns ${RUNS})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(3), { minLength: 1, maxLength: 15 }),
        fc.array(fc.string(), { minLength: 1, maxLength: 15 }),
        async (delays, texts) => {
          let k = 0;
          const dir = tempDir();
          const store = asyncJsonlStore(dir, () => delays[k++ % delays.length] as number);
          const sm = SessionManager.withStore(store, "/tmp/p");
          for (const t of texts) sm.appendMessage(user(t));
          sm.appendSessionInfo("named");
          await sm.flush();
          expect(records(sm.getSessionFile() as string).slice(1)).toEqual(sm.getEntries());
          rmSync(dir, { recursive: true, force: true });
        },
      ),
      PARAMS,
    );
  });

  it("an append's write carries the manager's exact line, and its own entry when read late", async () => {
    const dir = tempDir();
    const writes: QueuedWrite[] = [];
    const base = asyncJsonlStore(dir, () => 1);
    const store: SessionStore = {
      ...base,
      create(header, entries, when) {
        const sink = queuedSink({
          location: join(dir, `${header.id}.jsonl`),
          write: async (w) => {
            writes.push(w);
            if (w.kind === "create") {
              const { header: h, entries: e } = w.content;
              await writeFile(join(dir, `${h.id}.jsonl`), [h, ...e].map(line).join(""));
            } else await appendFile(join(dir, `${header.id}.jsonl`), `${w.line}\n`);
          },
        });
        if (when === "now") sink.createWith({ header, entries });
        return sink;
      },
    };
    const sm = SessionManager.withStore(store, "/tmp/p");
    sm.appendMessage(user("first"));
    for (let i = 0; i < 5; i++) sm.appendMessage(user(`m${i}`));
    await sm.flush();
    const appends = writes.filter((w) => w.kind === "append");
    expect(appends).toHaveLength(5);
    // The manager's own line for each entry (JSON keeps key order, so an entry's text is its
    // line), not the file this test wrote from `w.line`.
    const entryLines = sm
      .getEntries()
      .slice(1)
      .map((e) => JSON.stringify(e));
    expect(appends.map((w) => w.line)).toEqual(entryLines);
    // Each write's entry is read only now, after every append: it is still its own entry (the
    // manager's `entry()` answers for the last append only, so a write must not keep that).
    expect(appends.map((w) => w.entry)).toEqual(sm.getEntries().slice(1));
  });

  it("a write that throws instead of rejecting fails flush() and the next append, not the append that queued it", async () => {
    const base = asyncJsonlStore(tempDir());
    let calls = 0;
    const store: SessionStore = {
      ...base,
      create(header) {
        return queuedSink({
          location: `throws/${header.id}`,
          write: () => {
            calls++;
            throw new Error("the connection is gone");
          },
        });
      },
    };
    const sm = SessionManager.withStore(store, "/tmp/p");
    expect(sm.appendMessage(user("first"))).toBeTypeOf("string");
    await expect(sm.flush()).rejects.toThrow("the connection is gone");
    expect(calls).toBe(1);
    expect(() => sm.appendMessage(user("refused"))).toThrow(SessionStoreFailedError);
    expect(calls).toBe(1);
  });

  it("the first failed write stops the queue: the writes queued behind it are never made", async () => {
    const made: string[] = [];
    const sink = queuedSink({
      location: "stops",
      written: true,
      write: async (w) => {
        made.push(w.kind === "append" ? w.line : "create");
        if (made.length === 1) throw new Error("the first write failed");
      },
    });
    // Three appends queued at once, before the first write's failure is known.
    const entry = () => ({}) as SessionEntry;
    const session = () => ({}) as never;
    for (const l of ["a", "b", "c"]) sink.appendLine?.(`"${l}"`, entry, session);
    await expect(sink.flush()).rejects.toThrow("the first write failed");
    expect(made).toEqual(['"a"']);
    expect(sink.failure?.message).toBe("the first write failed");
  });

  it("an append's write reads as { kind, line, entry } in JSON, and keeps nothing else among its keys", async () => {
    const writes: QueuedWrite[] = [];
    const base = asyncJsonlStore(tempDir());
    const store: SessionStore = {
      ...base,
      create(header) {
        return queuedSink({
          location: `json/${header.id}`,
          write: async (w) => {
            writes.push(w);
          },
        });
      },
    };
    const sm = SessionManager.withStore(store, "/tmp/p");
    sm.appendMessage(user("first"));
    sm.appendMessage(user("second"));
    await sm.flush();
    const w = writes.find((x) => x.kind === "append") as QueuedWrite;
    expect(Object.keys(w).sort()).toEqual(["kind", "line"]);
    const entry = sm.getEntries().at(-1);
    expect(JSON.parse(JSON.stringify(w))).toEqual({
      kind: "append",
      line: w.kind === "append" && w.line,
      entry,
    });
  });

  describe("a sink whose flush throws, or rejects with a non-error", () => {
    /** A store whose sinks keep nothing (the memory sink's) and flush with `flush.current`. */
    function oddStore(flush: { current: () => Promise<void> }): SessionStore {
      return {
        ...asyncJsonlStore(tempDir()),
        create: (header) => ({
          ...memorySink,
          location: `odd/${header.id}`,
          flush: () => flush.current(),
        }),
      };
    }
    const throws = () => {
      throw new Error("flush threw");
    };
    const rejectsUndefined = () => Promise.reject(undefined);
    const settled = (p: Promise<void>) =>
      p.then(
        () => "resolved",
        () => "rejected",
      );

    it("flush() of its manager rejects, and never throws", async () => {
      const flush = { current: () => Promise.resolve() };
      const sm = SessionManager.withStore(oddStore(flush), "/tmp/p");
      sm.appendMessage(user("first"));
      await sleep(1);
      for (const odd of [throws, rejectsUndefined]) {
        flush.current = odd;
        expect(await settled(sm.flush())).toBe("rejected");
      }
    });

    it("switching away from it neither throws nor counts its writes as durable", async () => {
      for (const odd of [throws, rejectsUndefined]) {
        const flush = { current: () => Promise.resolve() };
        const sm = SessionManager.withStore(oddStore(flush), "/tmp/p");
        sm.appendMessage(user("first"));
        await sleep(1);
        flush.current = odd;
        // The old sink's outcome is kept for the next flush(): it failed, so that rejects.
        expect(() => sm.newSession()).not.toThrow();
        flush.current = () => Promise.resolve();
        sm.appendMessage(user("in the new session"));
        const outcome = await sm.flush().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(outcome).toBeInstanceOf(Error);
        if (odd === rejectsUndefined) expect((outcome as Error).message).toMatch(/non-error/);
      }
    });
  });

  it("a failed write fails flush(), then every write throws and changes nothing", async () => {
    const dir = tempDir();
    const sm = SessionManager.withStore(asyncJsonlStore(dir), "/tmp/p");
    sm.appendMessage(user("durable"));
    await sm.flush();
    const file = sm.getSessionFile() as string;
    // The folder goes away under the store (a dropped volume): the next write fails.
    rmSync(dir, { recursive: true, force: true });
    sm.appendMessage(user("lost"));
    await expect(sm.flush()).rejects.toThrow(/ENOENT/);
    const before = sm.getEntries();
    expect(() => sm.appendMessage(user("refused"))).toThrow(SessionStoreFailedError);
    expect(() => sm.appendLabelChange(before[0]?.id as string, "x")).toThrow(
      "The session store failed to persist an earlier entry: ENOENT",
    );
    expect(sm.getEntries()).toEqual(before);
    // A new session gets a new sink and works again.
    rmSync(file, { force: true });
    expect(sm.newSession()).toBeDefined();
  });
});
