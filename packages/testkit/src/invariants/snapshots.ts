/**
 * I9, snapshots: whatever a caller took before an append (a state, the arrays and objects the
 * read methods returned) reads the same after it.
 */
import { canonicalJson } from "./json.js";
import { type AppendableSession, guard, type Violation, violation } from "./types.js";

/**
 * I9 in general: `take()` a snapshot, record what `observe` sees of it, run `mutate()` (later
 * appends, branches…), and check that the same snapshot still observes the same.
 */
export function checkI9Snapshots<T>(
  take: () => T,
  mutate: () => void,
  observe: (snapshot: T) => unknown = (s) => s,
): Violation[] {
  return guard("I9", (out) => {
    const snapshot = take();
    const before = canonicalJson(observe(snapshot));
    mutate();
    const after = canonicalJson(observe(snapshot));
    if (after !== before) {
      const i = [...before].findIndex((c, k) => c !== after[k]);
      out.push(
        violation(
          "I9",
          `the snapshot changed (first difference at character ${i}): ${after.slice(Math.max(0, i - 30), i + 50)}`,
        ),
      );
    }
  });
}

/** What {@link checkI9SessionSnapshots} holds on to between the reads and the appends. */
export interface SessionSnapshot {
  readonly header: unknown;
  readonly entries: unknown;
  readonly tree: unknown;
  readonly branch: unknown;
  readonly context: unknown;
  readonly state?: unknown;
}

/**
 * I9 on a manager: the values returned by `getHeader`, `getEntries`, `getTree`, `getBranch`
 * and `buildSessionContext` (and `getState()`, when the manager has it, observed with
 * `observeState`) are unchanged after `mutate(session)`.
 */
export function checkI9SessionSnapshots<S extends AppendableSession>(
  session: S,
  mutate: (session: S) => void,
  observeState?: (state: unknown) => unknown,
): Violation[] {
  const getState = (session as { getState?: () => unknown }).getState;
  return checkI9Snapshots<SessionSnapshot>(
    () => ({
      header: session.getHeader(),
      entries: session.getEntries(),
      tree: session.getTree(),
      branch: session.getBranch(),
      context: session.buildSessionContext?.(),
      ...(getState && observeState ? { state: getState.call(session) } : {}),
    }),
    () => mutate(session),
    (snap) => ({
      ...snap,
      state: observeState && snap.state !== undefined ? observeState(snap.state) : undefined,
    }),
  );
}
