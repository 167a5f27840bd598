/**
 * The store contract on core's own stores: memory (which must keep nothing and say so) and
 * JSONL files in a temporary folder, the file's bytes being what is persisted.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { fileStore, memoryStore } from "@pi-sessions/core";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { describe, it } from "vitest";
import { type StoreContractTarget, storeContract } from "../../src/index.js";

const memory: StoreContractTarget = {
  name: "memory",
  make: async () => ({ store: memoryStore, persistedAt: async () => undefined }),
};

const files: StoreContractTarget = {
  name: "file",
  async make() {
    return {
      store: fileStore(tempDir()),
      async persistedAt(path) {
        if (!existsSync(path)) return undefined;
        return statSync(path).isDirectory() ? { directory: true } : readFileSync(path, "utf8");
      },
      // A directory where the session's file goes: its creation must fail.
      obstruct: async (path) => void mkdirSync(path),
    };
  },
};

for (const target of [memory, files]) {
  describe(`the store contract on core's ${target.name} store`, () => {
    for (const c of storeContract(target, { fc: fcOptions(40) })) it(c.name, c.run);
  });
}
