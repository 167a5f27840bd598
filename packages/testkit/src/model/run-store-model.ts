/**
 * The model-based runs on any store: each run takes a fresh manager from the store, runs a
 * random command sequence against it and the reference model (every observable compared
 * after each command), then awaits the store's `flush` and, when the store can reopen what it
 * kept, checks that a reopened manager reads the same (I5: header, entries, tree, labels,
 * name; its leaf is the last entry). Asynchronous throughout, so a store whose writes are
 * queued (a database) runs the same suite as memory and JSONL files.
 */
import fc from "fast-check";
import { checkI5ReopenEquals } from "../invariants/round-trip.js";
import { formatViolation, type SessionView } from "../invariants/types.js";
import type { ManagerFactory } from "../stores/manager-factory.js";
import type { SessionCommand } from "./append-commands.js";
import {
  checkParameters,
  modelReport,
  type RunSessionModelOptions,
  type SessionModelOptions,
  type SessionModelReport,
  sessionCommands,
  setupSessionModel,
} from "./run-model.js";

/** Thrown when the manager a store reopened differs from the one that wrote it. */
export class ReopenMismatchError extends Error {
  constructor(store: string, violations: readonly string[]) {
    super(`${store}: the reopened session differs:\n  - ${violations.join("\n  - ")}`);
    this.name = "ReopenMismatchError";
  }
}

/**
 * An asynchronous fast-check property: every command sequence on a manager of `store`
 * agrees with the model, and what the store kept reopens equal. Use with
 * `await fc.assert(storeModelProperty(store), { numRuns })`.
 */
export function storeModelProperty(
  store: ManagerFactory,
  options: SessionModelOptions = {},
): fc.IAsyncPropertyWithHooks<[Iterable<SessionCommand>]> {
  return fc.asyncProperty(sessionCommands(options), async (commands) => {
    const manager = await store.create();
    const setup = setupSessionModel(() => manager);
    fc.modelRun(() => setup, commands);
    await store.flush?.(manager);
    const reopened = await store.reopen?.(manager);
    if (reopened === undefined) return;
    const violations = checkI5ReopenEquals(manager as SessionView, reopened as SessionView);
    if (violations.length > 0)
      throw new ReopenMismatchError(store.name, violations.map(formatViolation));
  });
}

/**
 * Runs {@link storeModelProperty} and reports instead of throwing (for reports and CLIs);
 * the store is disposed afterwards. A store that throws counts as a failed run.
 */
export async function runStoreModel(
  store: ManagerFactory,
  options: RunSessionModelOptions = {},
): Promise<SessionModelReport> {
  try {
    return modelReport(
      options,
      await fc.check(storeModelProperty(store, options), checkParameters(options)),
    );
  } finally {
    await store.dispose?.();
  }
}
