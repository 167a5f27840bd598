/**
 * `context` through the real bin: the messages it lists are exactly what the reference's
 * `buildSessionContext` sends to the model, for the current leaf and for `--leaf`, on the
 * corpus (v3 and, read-only, v1) and on generated sessions; estimates add up.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { sessionLogArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CORPUS, copyCorpus, snapshot } from "./helpers/fixtures.js";
import { openWithReference } from "./helpers/reference.js";
import { runBin } from "./helpers/run-bin.js";

interface ContextJson {
  leafId: string | null;
  model: unknown;
  thinkingLevel: string;
  totals: { messages: number; estimatedTokens: number; bytes: number };
  messages: {
    index: number;
    entryId: string;
    estimatedTokens: number;
    bytes: number;
    message: unknown;
  }[];
}

async function contextJson(args: readonly string[]): Promise<ContextJson> {
  const r = await runBin(["context", ...args, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("context on the branched corpus session", () => {
  it("is the reference's context for the leaf and for another branch's leaf", async () => {
    const root = tempDir();
    const file = copyCorpus(root, [CORPUS.branched])[CORPUS.branched] as string;
    const ref = await openWithReference(file);
    const current = await contextJson([file]);
    const expected = ref.buildSessionContext();
    expect(current.messages.map((m) => m.message)).toEqual(expected.messages);
    expect(current.model).toEqual(expected.model);
    expect(current.thinkingLevel).toBe(expected.thinkingLevel);

    const elsewhere = ref.getEntries().filter((e) => !ref.getBranch().some((b) => b.id === e.id));
    const target = elsewhere[elsewhere.length - 1] as { id: string };
    const other = await contextJson([file, "--leaf", target.id]);
    ref.branch(target.id);
    expect(other.leafId).toBe(target.id);
    expect(other.messages.map((m) => m.message)).toEqual(ref.buildSessionContext().messages);
    expect(other.messages.map((m) => m.message)).not.toEqual(
      current.messages.map((m) => m.message),
    );
  });

  it("adds up its estimates, and the text says the same totals", async () => {
    const root = tempDir();
    const file = copyCorpus(root, [CORPUS.branched])[CORPUS.branched] as string;
    const json = await contextJson([file]);
    const sum = (key: "estimatedTokens" | "bytes") => json.messages.reduce((n, m) => n + m[key], 0);
    expect(json.totals.estimatedTokens).toBe(sum("estimatedTokens"));
    expect(json.totals.bytes).toBe(sum("bytes"));
    for (const m of json.messages) {
      expect(m.bytes).toBe(Buffer.byteLength(JSON.stringify(m.message)));
      const text = (m.message as { content?: unknown }).content;
      if (typeof text === "string") expect(m.estimatedTokens).toBe(Math.ceil(text.length / 4));
    }
    const r = await runBin(["context", file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `${json.totals.messages} messages, ~${json.totals.estimatedTokens.toLocaleString("en-US")} tokens`,
    );
    const rows = r.stdout.split("\n").filter((l) => /^\s+\d+ {2}[0-9a-f]{8} /.test(l));
    expect(rows).toHaveLength(json.totals.messages);
  });
});

describe("context on v1 corpus files", () => {
  it("equals the reference's context after its migration, and writes nothing", async () => {
    const root = tempDir();
    const copies = copyCorpus(root, [CORPUS.beforeCompaction, CORPUS.large]);
    const before = snapshot(root);
    for (const file of Object.values(copies)) {
      const ours = await contextJson([file]);
      const ref = await openWithReference(file);
      expect(ours.messages.map((m) => m.message)).toEqual(ref.buildSessionContext().messages);
    }
    expect(snapshot(root)).toEqual(before);
  });
});

describe("context on generated sessions", () => {
  const CONTEXT_PARAMS = fcOptions(6);
  it(`equals the reference's context for random logs (numRuns ${CONTEXT_PARAMS.numRuns})`, async () => {
    const arb = sessionLogArb({ minEntries: 1, maxEntries: 30 });
    await fc.assert(
      fc.asyncProperty(arb, async (log) => {
        const file = join(tempDir(), "s.jsonl");
        writeFileSync(file, log.jsonl);
        const ours = await contextJson([file]);
        const ref = await openWithReference(file);
        expect(ours.messages.map((m) => m.message)).toEqual(ref.buildSessionContext().messages);
      }),
      CONTEXT_PARAMS,
    );
  });
});
