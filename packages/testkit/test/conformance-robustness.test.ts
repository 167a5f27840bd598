/**
 * runConformance never throws for a failing implementation: modules without exports, with
 * throwing or wrong functions, or that are not objects at all become failures in the report;
 * a [Fix] case failed the reference's way is a deviation, while a [Fix] scenario that cannot
 * run for lack of an export is a plain failure.
 */
import * as core from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import {
  CONFORMANCE_SCENARIOS,
  formatReport,
  runConformance,
  runSessionModel,
} from "../src/internal.js";

const TOTAL = CONFORMANCE_SCENARIOS.length;

describe("runConformance on broken modules", () => {
  it.each([
    ["an empty object", {}],
    ["null", null],
    ["a number", 42],
  ])("%s: every scenario and the model run fail, nothing throws", async (_, module) => {
    const report = await runConformance(module, { numRuns: 5 });
    const ran = TOTAL - report.scenarios.skipped;
    expect(report.scenarios.failed).toBe(ran);
    expect(report.referenceDeviations).toEqual([]);
    expect(report.modelRuns).toMatchObject({ passed: 0, failed: 1 });
    expect(report.failed).toBe(ran + 1);
    expect(report.failures[0]?.message).toMatch(/the module has no export/);
    expect(formatReport(report)).toContain("FAILED");
  });

  it("functions that throw or return garbage are failures, with the thrown message", async () => {
    const broken = {
      ...core,
      buildSessionContext: () => {
        throw new Error("kaboom");
      },
      migrateSessionEntries: () => undefined,
      SessionManager: {
        ...Object.fromEntries(
          ["create", "open", "continueRecent", "forkFrom", "list"].map((k) => [k, () => null]),
        ),
        inMemory: () => {
          throw new TypeError("no memory");
        },
      },
    };
    const report = await runConformance(broken, { numRuns: 3 });
    const byId = new Map(report.failures.map((f) => [f.id, f.message]));
    expect(byId.get("example/A-settings-custom-label")).toBe("kaboom");
    expect(byId.get("format/migrate-v1")).toMatch(/header keys/);
    expect(byId.get("model/session-manager")).toMatch(/no memory/);
    expect(report.scenarios.passed).toBeGreaterThan(0); // e.g. parseSessionEntries still works
  });

  it("values thrown without a toString (Object.create(null)) are reported, not rethrown", async () => {
    const hostile = () => {
      throw Object.create(null);
    };
    const module = {
      ...core,
      buildSessionContext: hostile,
      SessionManager: { ...core.SessionManager, inMemory: hostile },
    };
    const report = await runConformance(module, { numRuns: 3 });
    const byId = new Map(report.failures.map((f) => [f.id, f.message]));
    expect(byId.get("example/A-settings-custom-label")).toBe("non-Error thrown: [object Object]");
    expect(byId.get("model/session-manager")).toContain("non-Error thrown: [object Object]");
    expect(runSessionModel(hostile, { numRuns: 3 }).error).toContain("non-Error thrown");
  });

  it("a [Fix] case failed the reference's way is a deviation; a missing export is a failure", async () => {
    const keepsScalars = {
      ...core,
      parseSessionEntries: (text: string) =>
        text.split("\n").flatMap((line) => {
          try {
            return [JSON.parse(line)];
          } catch {
            return [];
          }
        }),
    };
    const report = await runConformance(keepsScalars, {
      numRuns: 0,
      only: ["fix/W6", "format/parse"],
    });
    expect(report.referenceDeviations.map((d) => d.id)).toEqual(["fix/W6-parse-non-objects"]);
    expect(report.scenarios).toMatchObject({ total: 3, passed: 2, deviations: 1, failed: 0 });
    const { parseSessionEntries: _, ...withoutParse } = core;
    const missing = await runConformance(withoutParse, { numRuns: 0, only: ["fix/W6-parse"] });
    expect(missing.referenceDeviations).toEqual([]);
    expect(missing.failures.map((f) => f.message)).toEqual([
      "the module has no export parseSessionEntries",
    ]);
  });

  it("a subtly wrong SessionManager fails the scenarios and model runs that check the behaviour", async () => {
    const firstNameWins = {
      ...core,
      SessionManager: new Proxy(core.SessionManager, {
        get(target, key) {
          if (key !== "inMemory") return Reflect.get(target, key);
          return (...args: Parameters<typeof core.SessionManager.inMemory>) => {
            const sm = target.inMemory(...args);
            // The first session_info wins instead of the latest (SPEC §7.11).
            sm.getSessionName = () => {
              const first = sm.getEntries().find((e) => e.type === "session_info");
              return (first as { name?: string } | undefined)?.name?.trim() || undefined;
            };
            return sm;
          };
        },
      }),
    };
    const report = await runConformance(firstNameWins, { numRuns: 200, seed: 7 });
    const failed = report.failures.map((f) => f.id);
    expect(failed).toEqual(expect.arrayContaining(["tree/session-name", "model/session-manager"]));
    expect(report.modelRuns.failed).toBe(1);
  });

  it("throwing export getters and a list() that never answers are failures too", async () => {
    const hostile = new Proxy(
      { ...core },
      {
        get(target, key) {
          if (key === "parseSessionEntries") throw new Error("getter says no");
          if (key !== "SessionManager") return Reflect.get(target, key);
          return new Proxy(core.SessionManager, {
            get: (sm, k) => (k === "list" ? () => new Promise(() => {}) : Reflect.get(sm, k)),
          });
        },
      },
    );
    const report = await runConformance(hostile, {
      numRuns: 0,
      only: ["format/parse", "discovery/list"],
      timeoutMs: 200,
    });
    expect(report.failures.map((f) => [f.id, f.message])).toEqual([
      ["format/parse", "the module has no export parseSessionEntries"],
      ["discovery/list", "no answer after 200 ms"],
    ]);
  });
});
