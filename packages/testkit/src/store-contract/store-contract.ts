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
import { changedElsewhereCase } from "./changed-elsewhere.js";
import { applyCommand, contractCommandArb, settingCommandArb } from "./contract-commands.js";
import { held, onStore, reopen, reread, settle } from "./contract-io.js";
import type {
  ContractStore,
  StoreContractCase,
  StoreContractOptions,
  StoreContractTarget,
} from "./contract-target.js";
import { listingCase } from "./listing-contract.js";

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
    changedElsewhereCase(target, cwd, params),
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
