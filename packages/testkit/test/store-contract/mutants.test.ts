/**
 * The store contract catches broken stores: each mutant of core's file store breaks one rule,
 * and the case for that rule fails on it (the others need not).
 */
import { existsSync, readFileSync } from "node:fs";
import {
  fileStore,
  type SessionEntry,
  type SessionHeader,
  type SessionSink,
  type SessionStore,
} from "@pi-sessions/core";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { type StoreContractTarget, storeContract } from "../../src/index.js";

/** A target over a file store changed by `mutate`. */
function mutant(name: string, mutate: (store: SessionStore) => SessionStore): StoreContractTarget {
  return {
    name,
    make: async () => ({
      store: mutate(fileStore(tempDir())),
      persistedAt: async (path) => (existsSync(path) ? readFileSync(path, "utf8") : undefined),
    }),
  };
}

const MUTANTS: [rule: RegExp, StoreContractTarget][] = [
  [
    /nothing is persisted before the first/,
    // Writes a new session at once, before its first message.
    mutant("eager", (store) => ({ ...store, create: (h, e) => store.create(h, e, "now") })),
  ],
  [
    /a reopened session is exactly what was written/,
    // Reads a session back without its last entry.
    mutant("forgetful", (store) => ({
      ...store,
      open(location, fresh) {
        const opened = store.open(location, fresh);
        const entries = opened.entries.slice(0, -1);
        return { ...opened, entries, entryLines: undefined, columns: undefined };
      },
    })),
  ],
  [
    /a failed first write changes nothing/,
    // Cannot say how a write of it fails (no `obstruct`): a persisted store must.
    mutant("silent", (store) => store),
  ],
  [
    /list\(cwd\) and listAll\(\)/,
    // Lists every session whatever the cwd asked for.
    mutant("cwd-blind", (store) => ({
      ...store,
      list: () => (store.listAll as () => Promise<never[]>)(),
    })),
  ],
];

describe("the store contract fails on stores that break it", () => {
  for (const [rule, target] of MUTANTS) {
    const found = storeContract(target, { fc: fcOptions(20) }).find((c) => rule.test(c.name));
    it(`${target.name}: ${String(rule)} fails (numRuns 20)`, async () => {
      expect(found).toBeDefined();
      await expect(found?.run()).rejects.toThrow();
    });
  }
});

/**
 * A store of lines in a map that appends whatever it is handed: it never tells a manager that
 * another one changed the session, nor refuses a write from a stale view.
 */
function blindStore(): SessionStore {
  const data = new Map<string, SessionEntry[]>();
  const headers = new Map<string, SessionHeader>();
  const sink = (location: string, written: boolean): SessionSink => ({
    location,
    get written() {
      return written;
    },
    failure: undefined,
    append(entry, session) {
      if (written) (data.get(location) as SessionEntry[]).push(entry);
      else if (entry.type === "message") {
        const { header, entries } = session();
        headers.set(location, header);
        data.set(location, [...entries]);
        written = true;
      }
    },
    changedElsewhere: () => false,
    flush: async () => {},
    release() {},
    close() {},
  });
  const stored = (location: string) => ({
    header: headers.get(location) ?? null,
    entries: [...(data.get(location) ?? [])],
    diagnostics: [],
  });
  return {
    persisted: true,
    dir: "/blind",
    locationOf: (header) => `/blind/${header.id}`,
    create: (header) => sink(`/blind/${header.id}`, false),
    open: (location) => ({ ...stored(location), sink: sink(location, true) }),
    read: stored,
  };
}

it("blind: a manager writing on from a stale view fails the changed-elsewhere case (numRuns 50)", async () => {
  const blind: StoreContractTarget = {
    name: "blind",
    make: async () => {
      const store = blindStore();
      return { store, persistedAt: async (l) => store.read(l).entries.length || undefined };
    },
  };
  const found = storeContract(blind, { fc: fcOptions(50) }).find((c) =>
    /another manager changed/.test(c.name),
  );
  const error = await found?.run().then(
    () => undefined,
    (e: unknown) => e,
  );
  // fast-check's report carries the breach as its cause.
  expect(String((error as Error | undefined)?.cause)).toMatch(/wrote without entry/);
});
