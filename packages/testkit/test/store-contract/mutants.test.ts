/**
 * The store contract catches broken stores: each mutant of core's file store breaks one rule,
 * and the case for that rule fails on it (the others need not).
 */
import { existsSync, readFileSync } from "node:fs";
import { fileStore, type SessionStore } from "@pi-sessions/core";
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
