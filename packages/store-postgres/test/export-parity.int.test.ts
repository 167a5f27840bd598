/**
 * The same calls on a manager over PostgreSQL and on one over a JSONL file, with the same
 * seeded ids and clock: both hold the same entries, and the exported session is byte for
 * byte the file the file store wrote (or neither wrote anything yet). The calls are every
 * append, a leaf move and a branch summary; a branched session is left out, as it names its
 * parent by location, which differs between the stores by design.
 */
import { existsSync, readFileSync } from "node:fs";
import { createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import { fcOptions, tempDir, usageRecord } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresSessionStore } from "../src/index.js";
import { connectStore } from "./support/store.js";

let store: PostgresSessionStore;
beforeAll(async () => {
  store = await connectStore();
});
afterAll(() => store.close());

const CWD = "/work/project";

const text = fc.string({ maxLength: 12, unit: "grapheme" });
/** One call, as data; `pick` chooses an existing entry by index. */
const callArb = fc.oneof(
  fc.record({ op: fc.constant("user" as const), text }),
  fc.record({ op: fc.constant("assistant" as const), text }),
  fc.record({ op: fc.constant("label" as const), pick: fc.nat(), text }),
  fc.record({ op: fc.constant("name" as const), text }),
  fc.record({ op: fc.constant("custom" as const), text }),
  fc.record({ op: fc.constant("model" as const), text }),
  fc.record({ op: fc.constant("thinking" as const), text }),
  fc.record({ op: fc.constant("branch" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("summary" as const), pick: fc.nat(), text }),
);
type Call = typeof callArb extends fc.Arbitrary<infer C> ? C : never;

const AT = 1_700_000_000_000;
const USAGE = usageRecord({ input: 1, output: 2, cacheRead: 0, cacheWrite: 0 });

/** Runs one call on `sm`. */
function run(sm: SessionManager, call: Call): void {
  const ids = sm.getEntries().map((e) => e.id);
  const picked = "pick" in call && ids.length > 0 ? ids[call.pick % ids.length] : undefined;
  switch (call.op) {
    case "user":
      sm.appendMessage({ role: "user", content: call.text, timestamp: AT });
      return;
    case "assistant":
      sm.appendMessage({
        role: "assistant",
        content: [{ type: "text", text: call.text }],
        api: "messages",
        provider: "anthropic",
        model: "m",
        usage: USAGE,
        stopReason: "stop",
        timestamp: AT,
      } as never);
      return;
    case "label":
      if (picked) sm.appendLabelChange(picked, call.text || undefined);
      return;
    case "name":
      sm.appendSessionInfo(call.text);
      return;
    case "custom":
      sm.appendCustomEntry("test", { text: call.text });
      return;
    case "model":
      sm.appendModelChange("anthropic", call.text || "m");
      return;
    case "thinking":
      sm.appendThinkingLevelChange(call.text || "off");
      return;
    case "branch":
      if (picked) sm.branch(picked);
      return;
    case "summary":
      if (picked) sm.branchWithSummary(picked, call.text);
  }
}

describe("a session written through the manager", () => {
  it("exports exactly the file the file store writes for the same calls", async () => {
    let written = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 0x7fffffff }),
        fc.array(callArb, { minLength: 1, maxLength: 30 }),
        async (seed, calls) => {
          const fromPg = SessionManager.withStore(store, CWD, {
            env: createDeterministicEnv({ seed }),
          });
          const fromFile = SessionManager.create(CWD, tempDir(), {
            env: createDeterministicEnv({ seed }),
          });
          try {
            for (const call of calls) {
              run(fromPg, call);
              run(fromFile, call);
            }
            expect(fromPg.getEntries()).toEqual(fromFile.getEntries());
            await fromPg.flush();
            const file = fromFile.getSessionFile() as string;
            const location = fromPg.getSessionFile() as string;
            if (!existsSync(file)) {
              const found = await store.pool.query(
                `SELECT 1 FROM ${store.s}.sessions WHERE id = $1`,
                [store.idOf(location)],
              );
              expect(found.rowCount).toBe(0);
              return;
            }
            written++;
            expect((await store.exportBytes(location)).toString("utf8")).toBe(
              readFileSync(file, "utf8"),
            );
          } finally {
            fromFile.close();
            fromPg.close();
            // Seeds repeat across runs, and with them session ids.
            await store.pool.query(`DELETE FROM ${store.s}.sessions WHERE id = $1`, [
              fromPg.getSessionId(),
            ]);
          }
        },
      ),
      fcOptions(60),
    );
    expect(written).toBeGreaterThan(0);
  });
});
