/**
 * The branch-state law inside pi, over random sessions: whatever mix of typed appends, old
 * and damaged records, custom messages, prompts, tree moves, forks, reopens and new sessions
 * pi goes through, after every step the host's state equals `foldBranchState` over pi's
 * `getBranch()`, and no handler failed. Runs over pi's SessionManager and ours.
 */
import { existsSync } from "node:fs";
import { SessionManager as CoreSessionManager, type SessionEntry } from "@pi-sessions/core";
import { fcOptions, fcRuns } from "@pi-sessions/test-utils";
import { useSessionManager } from "@pi-sessions/test-utils/pi-switch";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldBranchState } from "../../src/index.js";
import { startTodoSdk, todoExtension, todoPlugin } from "./pi-fixtures.js";

const KINDS = [
  "add",
  "done",
  "raw-v1",
  "raw-bad",
  "note",
  "prompt",
  "reopen",
  "new",
  "navigate",
  "fork",
] as const;

/** One step; `pick` chooses among existing todos or entries (taken modulo their count). */
interface Op {
  readonly kind: (typeof KINDS)[number];
  readonly pick: number;
}

const opArb: fc.Arbitrary<Op> = fc.record({ kind: fc.constantFrom(...KINDS), pick: fc.nat(50) });

const RUNS = 40;

describe.each(["pi", "ours"] as const)(
  "the branch-state law in pi over %s's SessionManager",
  (side) => {
    it(`holds after every step of a random session (${fcRuns(RUNS)} runs of up to 10 steps)`, async () => {
      const { cls } = useSessionManager(side, CoreSessionManager);
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 10 }), async (ops) => {
          const { sdk, host } = await startTodoSdk(side, todoExtension, true);
          try {
            const manager = () => sdk.session().sessionManager;
            const file = () => manager().getSessionFile() ?? "";
            await sdk.prompt("Start.");
            for (const [i, op] of ops.entries()) {
              const todos = host().state().todos;
              const entries = manager().getEntries();
              if (op.kind === "add") await sdk.prompt(`/add item ${i}`);
              else if (op.kind === "done")
                await sdk.prompt(
                  `/done ${todos[op.pick % Math.max(1, todos.length)]?.title ?? "none"}`,
                );
              else if (op.kind === "raw-v1") await sdk.prompt(`/raw-v1 old ${op.pick}`);
              else if (op.kind === "raw-bad")
                await sdk.prompt(`/raw ${JSON.stringify({ v: 2, title: i })}`);
              else if (op.kind === "note") await sdk.prompt(`/note step ${i}`);
              else if (op.kind === "prompt") await sdk.prompt(`Step ${i}.`);
              // pi saves a session file with its first answer, and forks or reopens only saved ones.
              else if ((op.kind === "reopen" || op.kind === "fork") && !existsSync(file()))
                await sdk.prompt(`Save ${i}.`);
              else if (op.kind === "reopen")
                await sdk.runtime.switchSession(manager().getSessionFile() as string);
              else if (op.kind === "new") await sdk.runtime.newSession();
              else {
                const target = entries[op.pick % Math.max(1, entries.length)];
                if (!target) continue;
                if (op.kind === "navigate")
                  await sdk.session().navigateTree(target.id, { summarize: false });
                else await sdk.runtime.fork(target.id, { position: "at" });
              }
              expect(manager()).toBeInstanceOf(cls);
              const branch = manager().getBranch() as unknown as SessionEntry[];
              expect(host().state(), `after ${op.kind}`).toEqual(
                foldBranchState(todoPlugin, branch),
              );
              expect(host().failures()).toEqual([]);
            }
          } finally {
            await sdk.dispose();
          }
        }),
        fcOptions(RUNS),
      );
    });
  },
);
