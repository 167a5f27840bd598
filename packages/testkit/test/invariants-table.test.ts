/**
 * The checkers never throw for a failing implementation, and the INVARIANTS table lists a
 * named checker for each of I1–I10.
 */
import { SessionManager } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import {
  checkI2UniqueIdsAndParents,
  checkI3BranchPaths,
  checkI4TreeCoverage,
  checkI8ContextFromPath,
  INVARIANTS,
} from "../src/internal.js";
import { FIXTURE, wrap } from "./invariants-fixtures.js";

const load = (text = FIXTURE) => SessionManager.fromJsonl(text);

describe("the checkers never throw and the table lists them all", () => {
  it("an implementation that throws gives a violation, not an exception", () => {
    const fail = (): never => {
      throw new Error("boom");
    };
    const boom = wrap(load(), { getEntries: fail, getBranch: fail, getTree: fail });
    for (const check of [
      checkI2UniqueIdsAndParents,
      checkI3BranchPaths,
      checkI4TreeCoverage,
      checkI8ContextFromPath,
    ]) {
      const found = check(boom);
      expect(found).toHaveLength(1);
      expect(found[0]?.message).toMatch(/check stopped: the implementation threw Error: boom/);
    }
  });

  it("INVARIANTS has I1–I10 in order, each with named checker functions", () => {
    expect(INVARIANTS.map((i) => i.id)).toEqual([
      "I1",
      "I2",
      "I3",
      "I4",
      "I5",
      "I6",
      "I7",
      "I8",
      "I9",
      "I10",
    ]);
    for (const row of INVARIANTS) {
      const names = Object.keys(row.checkers);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toMatch(new RegExp(`^check${row.id}[A-Z]`));
    }
  });
});
