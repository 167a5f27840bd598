/**
 * runConformance against both implementations, as CI runs it: our SessionManager must pass
 * every scenario and every model run with no reference deviation; the reference package
 * must fail nothing and show exactly the known [Fix] rows of SPEC §12 as deviations. The
 * model runs go through every store (memory and JSONL files). Each logs
 * "scenarios X/Y, model runs N/N".
 */
import * as core from "@pi-sessions/core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  CONFORMANCE_SCENARIOS,
  type ConformanceReport,
  formatReport,
  jsonlFileStore,
  memoryStore,
  runConformance,
  summarizeReport,
} from "../src/internal.js";
import { params, runs } from "./arbitraries-run.js";
import { loadReference } from "./conformance-reference.js";

const NUM_RUNS = runs(100);
const { seed } = params(NUM_RUNS);
/** The model runs go through both stores of each implementation: memory and JSONL files. */
const options = (name: string, module: object) => ({
  name,
  numRuns: NUM_RUNS,
  stores: [memoryStore(module), jsonlFileStore(module)],
  ...(seed === undefined ? {} : { seed }),
});
const STORES = 2;

/** The [Fix] rows the reference 1.6.0 is known to fail (SPEC §12), one per scenario. */
const KNOWN_REFERENCE_DEVIATIONS = CONFORMANCE_SCENARIOS.filter((s) => s.fix && !s.skip?.()).map(
  (s) => s.id,
);

let ours: ConformanceReport;
let reference: ConformanceReport;

beforeAll(async () => {
  ours = await runConformance(core, options("@pi-sessions/core", core));
  const ref = await loadReference();
  reference = await runConformance(ref, options("reference 1.6.0", ref));
  console.log(`${formatReport(ours)}\n${formatReport(reference)}`);
});

describe("runConformance", () => {
  it("our SessionManager: every scenario and model run passes, no reference deviation", () => {
    console.log(`@pi-sessions/core: ${summarizeReport(ours)}`);
    expect(ours.failures).toEqual([]);
    expect(ours.referenceDeviations).toEqual([]);
    expect(ours.failed).toBe(0);
    const s = ours.scenarios;
    expect(s.passed).toBe(s.total - s.skipped);
    const total = NUM_RUNS * STORES;
    expect(ours.modelRuns).toMatchObject({ total, passed: total, failed: 0 });
    expect(ours.passed).toBe(s.passed + total);
  });

  it("the reference 1.6.0: nothing fails; every [Fix] scenario is a known reference deviation", () => {
    console.log(`reference 1.6.0: ${summarizeReport(reference)}`);
    expect(reference.failures).toEqual([]);
    expect(reference.failed).toBe(0);
    expect(reference.referenceDeviations.map((d) => d.id)).toEqual(KNOWN_REFERENCE_DEVIATIONS);
    const s = reference.scenarios;
    expect(s.passed + s.deviations).toBe(s.total - s.skipped);
    const total = NUM_RUNS * STORES;
    expect(reference.modelRuns).toMatchObject({ total, passed: total, failed: 0 });
  });

  it("covers the spec: examples, every append, tree, context, format, files, discovery, 19 [Fix] rows and same-process flows", () => {
    const prefixes = new Set(CONFORMANCE_SCENARIOS.map((s) => s.id.split("/")[0]));
    expect([...prefixes]).toEqual([
      "example",
      "append",
      "tree",
      "context",
      "format",
      "files",
      "discovery",
      "fix",
      "same-process",
    ]);
    const rows = new Set(CONFORMANCE_SCENARIOS.flatMap((s) => (s.fix ? [s.fix] : [])));
    expect([...rows].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))).toEqual([
      "W1",
      "W4",
      "W5",
      "W6",
      "W7",
      "W8",
      "W10",
      "W11",
      "W12",
      "W13",
      "W14",
      "W15",
      "W16",
      "W17",
      "W18",
      "W19",
      "W20",
      "W22",
      "W24",
    ]);
    expect(new Set(CONFORMANCE_SCENARIOS.map((s) => s.id)).size).toBe(CONFORMANCE_SCENARIOS.length);
  });
});
