/**
 * The usage-totals projection's rule and its declared `version` cannot drift apart (SPEC §14
 * F2): the projection folds fixed inputs (the corpus sessions and a log holding every case the
 * rule decides: usage on messages and `usage` entries, a negative field, branches, an orphan,
 * a reused id), and the states it saves (its own `encode`) are hashed and compared with the
 * hash committed for `name@version`. A rule changed without a new version fails here, before
 * the session index reuses a state the new rule would not make.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  createDeterministicEnv,
  replayProjection,
  type SessionEntry,
  SessionManager,
} from "@pi-sessions/core";
import { usageDiagnostics, usageTotals } from "@pi-sessions/plugins";
import { fingerprintProblem, foldFingerprint } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { assistant, CORPUS_DIR, corpusFiles, usage, user } from "./usage-fixtures.js";

/** The fingerprint of each rule version, committed: a new version adds a row. */
const FINGERPRINTS: Readonly<Record<string, string>> = {
  "usage-totals@1": "a3ada7736ab1c6e5bc5fe068",
};

const at = "2025-01-01T00:00:00.000Z";
const message = (id: string, parentId: string | null, msg: unknown) =>
  ({ type: "message", id, parentId, timestamp: at, message: msg }) as unknown as SessionEntry;
const usageEntry = (id: string, parentId: string | null, n: number, extra: object = {}) =>
  ({
    type: "usage",
    id,
    parentId,
    timestamp: at,
    kind: "k",
    provider: "p",
    model: `m${n}`,
    usage: usage(n, extra),
  }) as unknown as SessionEntry;

/** A log holding each case the rule decides, in an order that exercises its caches. */
const CASES: readonly SessionEntry[] = [
  message("a", null, user("hi")),
  message("b", "a", assistant("one", usage(1))),
  usageEntry("c", "b", 2),
  message("d", "a", assistant("branch", usage(3), "openai", "gpt")),
  usageEntry("e", "d", 4, { input: -5 }),
  message("f", "z", assistant("orphan", usage(5))),
  message("z", "c", user("late parent")),
  { type: "custom", id: "g", parentId: "f", timestamp: at, customType: "x" } as SessionEntry,
  message("b", "e", assistant("reused id", usage(6))),
  usageEntry("h", "b", 7, { cacheWrite1h: 3 }),
];

/** The corpus sessions' entries, as a load gives them (a v1 file's migrated ids seeded). */
function corpusEntries(): SessionEntry[][] {
  return corpusFiles().map((name) => {
    const text = readFileSync(join(CORPUS_DIR, name), "utf8");
    const env = createDeterministicEnv({ seed: 7 });
    return SessionManager.fromJsonl(text, "/corpus", { env }).getEntries();
  });
}

test(`usage-totals@${usageTotals.version}: the fixed inputs fold to the fingerprint committed for this version`, () => {
  const logs = corpusEntries();
  expect(logs.length).toBeGreaterThanOrEqual(3);
  // Every prefix of the case log (states after each entry), the end of each corpus session.
  const states = CASES.map((_, i) => replayProjection(usageTotals, CASES.slice(0, i + 1)));
  const ends = logs.map((entries) => replayProjection(usageTotals, entries));
  const last = states.at(-1);
  expect(last?.reusedIds).toBe(true);
  expect(usageDiagnostics(last ?? usageTotals.init()).length).toBeGreaterThan(0);
  expect(ends.every((s) => Object.keys(s.tree.byModel).length > 0)).toBe(true);
  const saved = [...states, ...ends].map((state) => usageTotals.encode(state));
  const key = `${usageTotals.name}@${usageTotals.version}`;
  expect(fingerprintProblem(FINGERPRINTS, key, foldFingerprint(saved))).toBeUndefined();
});

test("a saved usage state decodes to one that encodes the same and answers the same totals", () => {
  const state = replayProjection(usageTotals, CASES);
  const text = usageTotals.encode(state);
  expect(text).not.toBeNull();
  const back = usageTotals.decode(text as string);
  expect(usageTotals.encode(back)).toBe(text);
  expect(back.tree).toEqual(state.tree);
  expect(usageDiagnostics(back)).toEqual(usageDiagnostics(state));
});
