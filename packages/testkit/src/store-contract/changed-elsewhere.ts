/**
 * The changed-elsewhere part of the store contract: two managers of one process on one session
 * (an older one that created it, a newer one that opened it since, as pi's resume leaves them)
 * take turns writing. Each write is awaited until durable, so at every turn it is known what is
 * stored: a manager whose write succeeds has taken in every entry stored before it (the store
 * said its session changed elsewhere, and the manager reloaded), or its write is refused with
 * an error; never does it write on from a stale view (a silent fork). In the end no id is
 * stored twice, no parent dangles, and every entry a manager was told is durable is stored.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { SessionManager } from "@pi-sessions/core";
import fc from "fast-check";
import { applyCommand, contractCommandArb } from "./contract-commands.js";
import { onStore, reopen, reread, settle } from "./contract-io.js";
import type { StoreContractCase, StoreContractTarget } from "./contract-target.js";

/** Turns of the two managers: who writes, and what. */
const turnsArb = fc.array(
  fc.tuple(fc.constantFrom("older" as const, "newer" as const), contractCommandArb),
  { minLength: 1, maxLength: 8 },
);

/** The case for `target`. */
export function changedElsewhereCase(
  target: StoreContractTarget,
  cwd: string,
  params: { readonly numRuns: number },
): StoreContractCase {
  return {
    name: `${target.name}: a manager whose session another manager changed takes the change in or is refused, never forks (numRuns ${params.numRuns})`,
    run: onStore(target, cwd, (cs) =>
      fc.assert(
        fc.asyncProperty(turnsArb, async (turns) => {
          const older = SessionManager.withStore(cs.store, cwd);
          const location = older.getSessionFile() as string;
          applyCommand(older, { kind: "user", text: "shared" });
          applyCommand(older, { kind: "assistant", text: "reply" });
          deepStrictEqual(await settle(older), undefined);
          const newer = await reopen(cs, location, cwd);
          const managers = { older, newer };
          const refused = new Set<SessionManager>();
          // Every entry some manager was told is durable, as of the turn.
          const durable = new Set(older.getEntries().map((e) => e.id));
          for (const [who, command] of turns) {
            const sm = managers[who];
            if (refused.has(sm)) continue;
            const before = sm.getEntries().length;
            let failure: unknown;
            try {
              applyCommand(sm, command);
            } catch (error) {
              failure = error;
            }
            failure ??= await settle(sm);
            if (failure !== undefined) {
              ok(failure instanceof Error && failure.message !== "", "a refusal says why");
              refused.add(sm);
              continue;
            }
            // A branch move writes nothing (and reloads nothing); any other command wrote.
            if (command.kind === "branch" || sm.getEntries().length === before) continue;
            const seen = new Set(sm.getEntries().map((e) => e.id));
            for (const id of durable) ok(seen.has(id), `${who} wrote without entry ${id} stored`);
            for (const id of seen) durable.add(id);
          }
          older.close();
          newer.close();
          const stored = (await reread(cs, location)) as {
            entries: { id: string; parentId: string | null }[];
          };
          const ids = stored.entries.map((e) => e.id);
          deepStrictEqual(new Set(ids).size, ids.length, "no id is stored twice");
          for (const [i, e] of stored.entries.entries()) {
            ok(e.parentId === null || ids.slice(0, i).includes(e.parentId), "no dangling parent");
          }
          for (const id of durable) ok(ids.includes(id), `entry ${id} was lost`);
        }),
        params,
      ),
    ),
  };
}
