/** The reference loader and the corpus location point at real things. */
import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR, corpusFile } from "../src/corpus.js";
import { loadReference } from "../src/reference.js";

describe("loadReference", () => {
  it("loads pi's session module, whose in-memory manager appends", async () => {
    const ref = await loadReference<{
      CURRENT_SESSION_VERSION: number;
      SessionManager: { inMemory(cwd: string): { appendMessage(m: object): string } };
    }>();
    expect(ref.CURRENT_SESSION_VERSION).toBe(3);
    const id = ref.SessionManager.inMemory("/p").appendMessage({
      role: "user",
      content: "hi",
      timestamp: 1,
    });
    expect(typeof id).toBe("string");
  });
});

describe("CORPUS_DIR", () => {
  it("holds the corpus session files", () => {
    const files = readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const name of files) expect(existsSync(corpusFile(name))).toBe(true);
  });
});
