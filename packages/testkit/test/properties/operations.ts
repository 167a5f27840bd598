/**
 * Random SessionManager operation sequences (append*, branch, resetLeaf, branchWithSummary)
 * over deterministic in-memory managers, for the property tests.
 */
import { createDeterministicEnv, type SessionEntry, SessionManager } from "@pi-sessions/core";
import fc from "fast-check";
import { HEADER, MISSING_ID, message, PROVIDERS, pick } from "./arbitraries.js";

// --- SessionManager operations -----------------------------------------------------------

/** A deterministic env: `stepMs` 0 gives every entry the same timestamp. */
export const envSpec = fc.record({
  seed: fc.integer({ min: 1, max: 0x7fffffff }),
  stepMs: fc.constantFrom(0, 1, 1000),
});

/** A fresh in-memory manager over a deterministic env. */
export function newManager(e: { seed: number; stepMs: number }): SessionManager {
  return SessionManager.inMemory("/tmp/p", { env: createDeterministicEnv(e) });
}

/** A manager loaded from entries (they are copied; the leaf is the last one). */
export function loadManager(
  entries: readonly SessionEntry[],
  e: { seed: number; stepMs: number } = { seed: 1, stepMs: 1 },
): SessionManager {
  const env = createDeterministicEnv(e);
  return SessionManager.inMemory("/tmp/p", { env }, [HEADER, ...entries]);
}

/** One manager call; `n` picks a target, `query` asks for the context afterwards (I8). */
export type Op = {
  op: (typeof OPS)[number];
  n: number;
  variant: number;
  query: boolean;
};
const OPS = [
  "user",
  "assistant",
  "toolResult",
  "system",
  "thinking",
  "model",
  "compaction",
  "custom",
  "customMessage",
  "label",
  "sessionInfo",
  "contextEdit",
  "branch",
  "branch",
  "resetLeaf",
  "branchWithSummary",
] as const;

export const op: fc.Arbitrary<Op> = fc.record({
  op: fc.constantFrom(...OPS),
  n: fc.nat(60),
  variant: fc.nat(5),
  query: fc.boolean(),
});
export const ops = (maxLength = 25): fc.Arbitrary<Op[]> =>
  fc.array(op, { maxLength, size: "medium" });

const EDITABLE = new Set(["user", "assistant", "toolResult"]);
const isEditable = (e: SessionEntry): boolean =>
  e.type === "custom_message" || (e.type === "message" && EDITABLE.has(e.message?.role));

/** Runs one operation on the manager; operations without a valid target do nothing. */
export function applyOp(sm: SessionManager, o: Op): void {
  const ids = sm.getEntries().map((e) => e.id);
  const some = ids.length > 0 ? pick(ids, o.n) : undefined;
  const text = `${o.op} ${o.n}`;
  const v = o.variant;
  switch (o.op) {
    case "user":
    case "assistant":
    case "toolResult":
    case "system":
      sm.appendMessage(message(o.op, text, v, 1_735_689_600_000 + o.n) as never);
      return;
    case "thinking":
      sm.appendThinkingLevelChange(pick(["off", "low", "high"], v));
      return;
    case "model":
      sm.appendModelChange(pick(PROVIDERS, v), `m${o.n % 3}`);
      return;
    case "compaction": {
      const path = sm.getBranch().map((e) => e.id);
      const kept = v < 3 && path.length > 0 ? pick(path, o.n) : v === 3 ? null : MISSING_ID;
      sm.appendCompaction(`S ${o.n}`, kept, 100);
      return;
    }
    case "custom":
      sm.appendCustomEntry("ext", { n: o.n });
      return;
    case "customMessage":
      sm.appendCustomMessageEntry("ext", v % 2 ? text : [{ type: "text", text }], v > 2);
      return;
    case "label":
      if (some !== undefined) sm.appendLabelChange(some, pick(["L1", undefined, "", "L2"], v));
      return;
    case "sessionInfo":
      sm.appendSessionInfo(pick(["  name\none ", "", "two", " "], v));
      return;
    case "contextEdit": {
      const targets = sm.getBranch().filter(isEditable);
      if (targets.length === 0) return;
      const content = v % 2 ? `edited ${v}` : [{ type: "text" as const, text }];
      sm.appendContextEdit(pick(targets, o.n).id, v < 2 ? null : { content });
      return;
    }
    case "branch":
      if (some !== undefined) sm.branch(some);
      return;
    case "resetLeaf":
      sm.resetLeaf();
      return;
    case "branchWithSummary":
      sm.branchWithSummary(v === 0 ? null : (some ?? null), v === 1 ? "" : `B ${o.n}`);
      return;
  }
}
