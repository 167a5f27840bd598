/**
 * The shared mechanics of one model command: call the implementation, compare its outcome
 * (return value or exact error message) with the model's prediction, update the model, and
 * compare every observable afterwards.
 */

import type { Target } from "../api-calls/call-args.js";
import type { EntryLike, SessionManagerLike } from "../api-calls/manager-api.js";
import { type CallOf, invokeCall } from "../api-calls/manager-calls.js";
import { assertMatchesModel, ModelMismatchError } from "./check.js";
import { clip, describeThrown, orderedJson } from "./json.js";
import type { SessionModel } from "./session-model.js";

/** An ISO-8601 UTC timestamp with milliseconds, as `new Date().toISOString()` writes (§5.3). */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** What a call did: returned a value or threw an error with a message. */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

/** Calls `f`, capturing a thrown error's message. */
export function attempt(f: () => unknown): Outcome {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, error: describeThrown(e) };
  }
}

/** Resolves a target to an id at run time (ids are random, so commands hold indexes). */
export function resolveTarget(model: SessionModel, target: Target): string {
  if ("unknown" in target) return target.unknown;
  if ("onBranch" in target) {
    const branch = model.branch().map((e) => e.id);
    if (branch.length > 0) return branch[target.onBranch % branch.length] as string;
  }
  const index = "pick" in target ? target.pick : target.onBranch;
  return model.knownIds[index % Math.max(1, model.knownIds.length)] ?? "no-such-entry";
}

/**
 * The call of `MANAGER_CALLS` a command makes, as a thunk for `runAppend`: invoked on `sm`
 * with its targets resolved against `model` (before the call changes it).
 */
export const callOn =
  (model: SessionModel, sm: SessionManagerLike, call: CallOf): (() => unknown) =>
  () =>
    invokeCall(sm, call, (t) => resolveTarget(model, t));

/** A plain copy of command arguments, so neither side can share objects with the other. */
export const copyArg = <T>(value: T): T => (value === undefined ? value : structuredClone(value));

/** Shortened JSON of command arguments for `toString()`. */
export const show = (value: unknown): string => clip(orderedJson(value), 80);

/**
 * Checks a call the model says must throw `expected`: it must throw exactly that message.
 * The comparison of the whole state that follows shows that nothing changed.
 */
export function expectError(what: string, outcome: Outcome, expected: string): void {
  if (outcome.ok) {
    throw new ModelMismatchError(what, [
      `returned ${show(outcome.value)}, expected error "${expected}"`,
    ]);
  }
  if (outcome.error !== expected) {
    throw new ModelMismatchError(what, [`threw "${outcome.error}", expected "${expected}"`]);
  }
}

/** Fails when a call the model says must succeed threw. */
export function expectSuccess(
  what: string,
  outcome: Outcome,
): asserts outcome is { ok: true; value: unknown } {
  if (!outcome.ok)
    throw new ModelMismatchError(what, [`threw "${outcome.error}", expected success`]);
}

/**
 * Runs an append: `error` is the model's predicted error (or undefined), `call` calls the
 * implementation, `build(id, timestamp)` is the entry the model expects with the
 * implementation's id and timestamp. The new id must be a fresh string and the timestamp an
 * ISO string; `returnsEntry` is for appendUsage, which returns the entry itself.
 */
export function runAppend(
  what: string,
  model: SessionModel,
  sm: SessionManagerLike,
  error: string | undefined,
  call: () => unknown,
  build: (id: string, timestamp: string) => EntryLike,
  returnsEntry = false,
): void {
  const outcome = attempt(call);
  if (error !== undefined) {
    expectError(what, outcome, error);
  } else {
    expectSuccess(what, outcome);
    const returned = outcome.value as EntryLike | string | undefined;
    const id = returnsEntry ? (returned as EntryLike | undefined)?.id : returned;
    if (typeof id !== "string" || id === "") {
      throw new ModelMismatchError(what, [`returned ${show(returned)}, expected a new entry id`]);
    }
    if (model.has(id))
      throw new ModelMismatchError(what, [`returned id ${id}, which already exists`]);
    const timestamp = attempt(() => sm.getEntry(id)?.timestamp);
    if (
      !timestamp.ok ||
      typeof timestamp.value !== "string" ||
      !ISO_TIMESTAMP.test(timestamp.value)
    ) {
      throw new ModelMismatchError(what, [
        `entry ${id} has timestamp ${show(timestamp)}, expected an ISO string`,
      ]);
    }
    const expected = build(id, timestamp.value);
    model.append(expected);
    if (returnsEntry && orderedJson(returned) !== orderedJson(expected)) {
      throw new ModelMismatchError(what, [
        `returned ${show(returned)}, expected ${show(expected)}`,
      ]);
    }
  }
  assertMatchesModel(what, model, sm);
}

/** Runs a call that changes no entries (branch, resetLeaf, getters): outcome, then state. */
export function runNavigation(
  what: string,
  model: SessionModel,
  sm: SessionManagerLike,
  error: string | undefined,
  call: () => unknown,
  apply: () => void,
): void {
  const outcome = attempt(call);
  if (error !== undefined) expectError(what, outcome, error);
  else {
    expectSuccess(what, outcome);
    if (outcome.value !== undefined) {
      throw new ModelMismatchError(what, [`returned ${show(outcome.value)}, expected undefined`]);
    }
    apply();
  }
  assertMatchesModel(what, model, sm);
}
