/**
 * The testkit's suites on the PostgreSQL store, the same as on memory and JSONL files: the
 * conformance run (its scenarios exercise core's file store; its model runs go through this
 * store) and the model-based property directly, each run reopening what it wrote from
 * PostgreSQL and comparing (I5).
 */
import * as core from "@pi-sessions/core";
import { fcOptions } from "@pi-sessions/test-utils";
import { runConformance, storeModelProperty, summarizeReport } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { connectStore, postgresStoreFactory } from "./support/store.js";

describe("the testkit's suites on the PostgreSQL store", () => {
  it("runConformance: every scenario passes, and the model runs on this store agree", async () => {
    const options = fcOptions(50);
    const report = await runConformance(core, {
      name: "postgres",
      numRuns: options.numRuns,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      stores: [postgresStoreFactory(await connectStore())],
    });
    console.log(`postgres: ${summarizeReport(report)}`);
    expect(report.failures).toEqual([]);
    expect(report.modelRuns).toMatchObject({ total: options.numRuns, passed: options.numRuns });
  });

  it("model runs: random command sequences agree with the model and reopen equal from PostgreSQL", async () => {
    const store = postgresStoreFactory(await connectStore());
    try {
      await fc.assert(storeModelProperty(store), fcOptions(100));
    } finally {
      await store.dispose?.();
    }
  });

  it("model runs without a writer lease (the seq alone guards the appends)", async () => {
    const store = postgresStoreFactory(await connectStore({ lease: false }));
    try {
      await fc.assert(storeModelProperty(store), fcOptions(50));
    } finally {
      await store.dispose?.();
    }
  });
});
