/** How the store contract reads a store back and waits on managers. */
import { deepStrictEqual, throws } from "node:assert/strict";
import { SessionManager } from "@pi-sessions/core";
import { asError } from "@pi-sessions/core/internal";
import { applyCommand } from "./contract-commands.js";
import type { ContractStore, StoreContractTarget } from "./contract-target.js";

/** JSON's view of a value: what a store of text gives back for what it was handed. */
export const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? "null");

/** The session at `location` as the port reads it back, in JSON's view. */
export async function reread(cs: ContractStore, location: string) {
  await cs.prepare?.(location, "read");
  const { header, entries } = cs.store.read(location);
  return asJson({ header, entries });
}

/** What `sm` holds, in JSON's view, to compare with {@link reread}. */
export const held = (sm: SessionManager) =>
  asJson({ header: sm.getHeader(), entries: sm.getEntries() });

/** A manager of `cs`'s store on the stored session at `location`. */
export async function reopen(
  cs: ContractStore,
  location: string,
  cwd: string,
): Promise<SessionManager> {
  await cs.prepare?.(location, "open");
  const sm = SessionManager.withStore(cs.store, cwd);
  sm.setSessionFile(location);
  return sm;
}

/** The outcome of `sm.flush()`: the failure, or undefined once everything is durable. */
export async function settle(sm: SessionManager): Promise<Error | undefined> {
  try {
    await sm.flush();
    return undefined;
  } catch (error) {
    return asError(error);
  }
}

/** What a store that keeps nothing must do: give no location, and refuse to open or read. */
function keepsNothing(cs: ContractStore, cwd: string): void {
  const sm = SessionManager.withStore(cs.store, cwd);
  applyCommand(sm, { kind: "user", text: "kept in memory only" });
  deepStrictEqual(sm.getSessionFile(), undefined);
  deepStrictEqual(sm.getEntries().length, 1);
  throws(() => cs.store.open("/nowhere", () => sm.getHeader() as never), /cannot open/);
  throws(() => cs.store.read("/nowhere"), /cannot read/);
}

/** Runs `check` on a fresh store of `target` (a store that keeps nothing is checked as such). */
export function onStore(
  target: StoreContractTarget,
  cwd: string,
  check: (cs: ContractStore) => Promise<void>,
): () => Promise<void> {
  return async () => {
    const cs = await target.make();
    try {
      if (cs.store.persisted) await check(cs);
      else keepsNothing(cs, cwd);
    } finally {
      await cs.dispose?.();
    }
  };
}
