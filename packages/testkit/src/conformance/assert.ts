/**
 * The few assertions scenarios need, with messages that say what was expected. They throw
 * {@link ScenarioAssertion}; the runner turns any throw into a failure, so no test runner is
 * needed.
 */
import { describeDifference, orderedJson } from "../model/json.js";

/** A failed expectation inside a scenario. */
export class ScenarioAssertion extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScenarioAssertion";
  }
}

/** Fails unless `condition` holds. */
export function ok(condition: unknown, what: string): asserts condition {
  if (!condition) throw new ScenarioAssertion(what);
}

/** Fails unless `actual` and `expected` are the same JSON value (key order ignored). */
export function equal(actual: unknown, expected: unknown, what: string): void {
  const d = describeDifference(what, actual, expected);
  if (d) throw new ScenarioAssertion(d);
}

/** Fails unless `actual` and `expected` are the same JSON text (key order included). */
export function equalOrdered(actual: unknown, expected: unknown, what: string): void {
  const [a, b] = [orderedJson(actual), orderedJson(expected)];
  if (a !== b) throw new ScenarioAssertion(`${what}: got ${a}, expected ${b}`);
}

/** The message `f` throws (failing if it returns). */
export function thrown(f: () => unknown, what: string): string {
  try {
    f();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new ScenarioAssertion(`${what}: expected an error, nothing was thrown`);
}

/** Runs `f`; true when it threw (for rows where refusing and succeeding are both allowed). */
export function throws(f: () => unknown): boolean {
  try {
    f();
    return false;
  } catch {
    return true;
  }
}

/** Fails unless `f` throws an Error whose message is exactly `message`. */
export function throwsMessage(f: () => unknown, message: string, what: string): void {
  const got = thrown(f, what);
  if (got !== message)
    throw new ScenarioAssertion(`${what}: threw "${got}", expected "${message}"`);
}

/** `ids` of a list of entries (anything with an id). */
export const idsOf = (entries: readonly unknown[] | undefined): unknown[] =>
  (entries ?? []).map((e) => (e as { id?: unknown } | null)?.id);
