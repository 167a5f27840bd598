/**
 * The contract of core's `SessionStore` port, run against any store through core's own
 * manager and the port's `open`/`read`: a new session is persisted at its first user or
 * assistant message and not before (pi's rule), whole; a failed write changes nothing and says
 * why; reopening gives back exactly what was written; and a manager whose session another
 * manager of the process changed never writes on as if it had not (it takes the foreign
 * entries in, or is refused with an error). A store that keeps nothing (`persisted: false`)
 * must say so: no location, nothing to open or read. Each case throws (node's `assert`) on a
 * breach, so it runs under any test runner.
 */
import { deepStrictEqual, ok, throws } from "node:assert/strict";
import { SessionManager, SessionStoreFailedError } from "@pi-sessions/core";
import fc from "fast-check";
import {
  applyCommand,
  type ContractCommand,
  contractCommandArb,
  settingCommandArb,
} from "./contract-commands.js";
import { held, onStore, reopen, reread, settle } from "./contract-io.js";
import type {
  ContractStore,
  StoreContractCase,
  StoreContractOptions,
  StoreContractTarget,
} from "./contract-target.js";
import { listingCase } from "./listing-contract.js";

/** Whether `command` is a user or assistant message. */
const isMessage = (c: ContractCommand) => c.kind === "user" || c.kind === "assistant";

/** The cases of the store contract for `target`; run each as a test. */
export function storeContract(
  target: StoreContractTarget,
  options: StoreContractOptions = {},
): StoreContractCase[] {
  const cwd = options.cwd ?? "/work/store-contract";
  const params = { numRuns: 50, ...options.fc };
  const runs = `(numRuns ${params.numRuns})`;
  const on = (check: (cs: ContractStore) => Promise<void>) => onStore(target, cwd, check);
  const firstMessageArb = fc.record({
    kind: fc.constantFrom("user" as const, "assistant" as const),
    text: fc.string({ maxLength: 8 }),
  });
  return [
    {
      name: `${target.name}: nothing is persisted before the first user or assistant message, then the whole session ${runs}`,
      run: on((cs) =>
        fc.assert(
          fc.asyncProperty(
            fc.array(settingCommandArb, { maxLength: 6 }),
            firstMessageArb,
            fc.array(contractCommandArb, { maxLength: 6 }),
            async (settings, first, rest) => {
              const sm = SessionManager.withStore(cs.store, cwd);
              const location = sm.getSessionFile() as string;
              ok(location !== undefined, "a persisted store gives a new session a location");
              for (const c of settings) applyCommand(sm, c);
              deepStrictEqual(await settle(sm), undefined);
              deepStrictEqual(await cs.persistedAt(location), undefined);
              applyCommand(sm, first);
              deepStrictEqual(await settle(sm), undefined);
              deepStrictEqual(await reread(cs, location), held(sm));
              for (const c of rest) applyCommand(sm, c);
              deepStrictEqual(await settle(sm), undefined);
              deepStrictEqual(await reread(cs, location), held(sm));
              sm.close();
            },
          ),
          params,
        ),
      ),
    },
    {
      name: `${target.name}: a reopened session is exactly what was written, and writes on ${runs}`,
      run: on((cs) =>
        fc.assert(
          fc.asyncProperty(
            fc.array(contractCommandArb, { maxLength: 8 }),
            fc.array(contractCommandArb, { maxLength: 6 }),
            async (before, after) => {
              const sm = SessionManager.withStore(cs.store, cwd);
              const location = sm.getSessionFile() as string;
              for (const c of [{ kind: "user", text: "opening" } as const, ...before]) {
                applyCommand(sm, c);
              }
              deepStrictEqual(await settle(sm), undefined);
              const written = held(sm);
              sm.close();
              const again = await reopen(cs, location, cwd);
              deepStrictEqual(held(again), written);
              for (const c of after) applyCommand(again, c);
              deepStrictEqual(await settle(again), undefined);
              deepStrictEqual(await reread(cs, location), held(again));
              again.close();
            },
          ),
          params,
        ),
      ),
    },
    {
      name: `${target.name}: a failed first write changes nothing, says why, and loses no accepted entry`,
      run: on(async (cs) => {
        const sm = SessionManager.withStore(cs.store, cwd);
        const location = sm.getSessionFile() as string;
        applyCommand(sm, { kind: "model", model: "before the failure" });
        ok(cs.obstruct, `${target.name} persists sessions, so it must say how a write fails`);
        await cs.obstruct(location);
        const before = await cs.persistedAt(location);
        let failure: unknown;
        try {
          applyCommand(sm, { kind: "user", text: "its first write fails" });
        } catch (error) {
          failure = error;
        }
        failure ??= await settle(sm);
        ok(failure instanceof Error && failure.message !== "", "the failure says why");
        deepStrictEqual(await cs.persistedAt(location), before);
        // Either the manager undid the entry (a synchronous store) or it refuses every later
        // write (an asynchronous one): never does it go on as if the entry were stored.
        const undone = !sm.getEntries().some((e) => e.type === "message");
        if (!undone) {
          throws(
            () => applyCommand(sm, { kind: "user", text: "refused" }),
            SessionStoreFailedError,
          );
        }
        sm.close();
      }),
    },
    {
      name: `${target.name}: a manager whose session another manager changed takes the change in or is refused, never forks ${runs}`,
      run: on((cs) =>
        fc.assert(
          fc.asyncProperty(
            fc.array(contractCommandArb, { minLength: 1, maxLength: 4 }),
            fc.array(contractCommandArb, { minLength: 1, maxLength: 4 }),
            async (olderWrites, newerWrites) => {
              const older = SessionManager.withStore(cs.store, cwd);
              const location = older.getSessionFile() as string;
              applyCommand(older, { kind: "user", text: "shared" });
              applyCommand(older, { kind: "assistant", text: "reply" });
              deepStrictEqual(await settle(older), undefined);
              const newer = await reopen(cs, location, cwd);
              const attempt = (sm: SessionManager, commands: ContractCommand[]) => {
                try {
                  for (const c of commands) applyCommand(sm, c);
                } catch (error) {
                  return error;
                }
              };
              const olderThrew = attempt(older, olderWrites.filter(isMessage));
              const olderFailed = olderThrew ?? (await settle(older));
              const newerThrew = attempt(newer, newerWrites);
              const newerFailed = newerThrew ?? (await settle(newer));
              older.close();
              newer.close();
              const stored = (await reread(cs, location)) as {
                entries: { id: string; parentId: string | null }[];
              };
              const ids = stored.entries.map((e) => e.id);
              deepStrictEqual(new Set(ids).size, ids.length, "no id is stored twice");
              for (const [i, e] of stored.entries.entries()) {
                ok(
                  e.parentId === null || ids.slice(0, i).includes(e.parentId),
                  "no dangling parent",
                );
              }
              // What a manager was told is stored is stored; a newer one that wrote saw the older's.
              const storedIds = new Set(ids);
              for (const [sm, failed] of [
                [older, olderFailed],
                [newer, newerFailed],
              ] as const) {
                if (failed !== undefined) continue;
                for (const e of sm.getEntries()) ok(storedIds.has(e.id), `entry ${e.id} was lost`);
              }
              // A branch move writes nothing; any other command of the newer one is a write.
              const newerWrote = newerWrites.some((c) => c.kind !== "branch");
              if (olderFailed === undefined && newerFailed === undefined && newerWrote) {
                const seen = new Set(newer.getEntries().map((e) => e.id));
                for (const e of older.getEntries()) ok(seen.has(e.id), "the change went unseen");
              }
            },
          ),
          params,
        ),
      ),
    },
    ...(options.listing === false
      ? []
      : [
          listingCase(target, cwd, {
            ...params,
            numRuns: Math.max(1, Math.ceil(params.numRuns / 5)),
          }),
        ]),
  ];
}
