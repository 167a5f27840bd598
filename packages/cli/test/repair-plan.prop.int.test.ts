/**
 * The repair planner in process, at a higher run count than the bin-level property: for
 * random damaged files (testkit) and legacy files with garbage, the plan keeps every
 * unparseable line byte for byte and in order, changes only lines it accounts for, ends the
 * file with a newline, and the planned file reloads with nothing fixable left and no problem
 * of a new kind. Planning twice is a fixed point.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSession, NotASessionError, planRepair, problemsOf } from "@pi-sessions/cli";
import { createDeterministicEnv } from "@pi-sessions/core";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { damagedSessionArb, legacySessionArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitLines } from "../src/repair/lines.js";
import { unparseableLines } from "./helpers/lines.js";

const env = () => createDeterministicEnv({ seed: 7 });

/** The problem kinds of a file on disk (a file that is no session has one: not-a-session). */
function kindsOf(path: string): string[] {
  try {
    return problemsOf(loadSession(path)).map((p) => p.kind);
  } catch (error) {
    if (error instanceof NotASessionError) return ["not-a-session"];
    throw error;
  }
}

function checkPlan(text: string): void {
  const dir = tempDir();
  const path = join(dir, "s.jsonl");
  const original = Buffer.from(text);
  writeFileSync(path, original);
  const before = kindsOf(path);
  const plan = planRepair(original, { migrate: true, structural: true, env: env() });
  expect(unparseableLines(plan.output)).toEqual(unparseableLines(original));
  expect(plan.output.at(-1)).toBe(0x0a);
  // Every line that changed is one an action names, or a record migration rewrote.
  const was = splitLines(original);
  const now = splitLines(plan.output);
  const changed = now
    .map((line, i) => (was[i] !== undefined && line.equals(was[i] as Buffer) ? -1 : i + 1))
    .filter((n) => n > 0 && n <= now.length - 1);
  const migrated = plan.actions.some((a) => a.kind === "migrated");
  const named = new Set(plan.actions.map((a) => a.line));
  if (!migrated) for (const line of changed) expect(named.has(line)).toBe(true);
  expect(plan.changed).toBe(!plan.output.equals(original));

  writeFileSync(path, plan.output);
  const after = kindsOf(path);
  expect(after.length).toBeLessThanOrEqual(before.length);
  for (const kind of after) {
    expect(["duplicate-id", "cycle", "missing-newline", "legacy-version"]).not.toContain(kind);
    expect(before).toContain(kind);
  }
  const again = planRepair(readFileSync(path), { migrate: true, structural: true, env: env() });
  expect(again.changed).toBe(false);
}

describe("planRepair", () => {
  const DAMAGED_PARAMS = fcOptions(200);
  const LEGACY_PARAMS = fcOptions(100);

  it(`never loses a line and fixes what it claims on damaged files (numRuns ${DAMAGED_PARAMS.numRuns})`, () => {
    fc.assert(
      fc.property(damagedSessionArb({ maxEntries: 30, maxDamage: 5 }), (s) => checkPlan(s.jsonl)),
      DAMAGED_PARAMS,
    );
  });

  it(`migrates legacy files with garbage lines without losing any (numRuns ${LEGACY_PARAMS.numRuns})`, () => {
    fc.assert(
      fc.property(legacySessionArb({ garbageLines: true, versionless: true }), (s) =>
        checkPlan(s.jsonl),
      ),
      LEGACY_PARAMS,
    );
  });

  it("refuses bytes with no session header", () => {
    expect(() =>
      planRepair(Buffer.from(""), { migrate: true, structural: true, env: env() }),
    ).toThrow("the file is empty");
    expect(() =>
      planRepair(Buffer.from('{"type":"custom"}\n'), {
        migrate: true,
        structural: true,
        env: env(),
      }),
    ).toThrow("line 1: the first record is not a session header");
  });
});
