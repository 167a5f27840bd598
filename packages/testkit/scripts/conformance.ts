/**
 * Prints the conformance report of @pi-sessions/core and of the reference package
 * (@earendil-works/pi-coding-agent 1.6.0), or of any module given with --module.
 *
 *   pnpm --filter @pi-sessions/testkit conformance [--runs 100] [--seed 42] [--only fix/] [--json]
 *   pnpm --filter @pi-sessions/testkit conformance --module ./path/to/session-module.js
 *
 * Exit status 1 when @pi-sessions/core (or a --module) fails anything or shows a reference
 * deviation, or when the reference fails a scenario that is not a [Fix] case.
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import * as core from "@pi-sessions/core";
import {
  type ConformanceReport,
  formatReport,
  jsonlFileStore,
  memoryStore,
  runConformance,
} from "../src/internal.js";

const REFERENCE = new URL(
  "../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js",
  import.meta.url,
);

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: process.env.FC_RUNS ?? "100" },
    seed: { type: "string", default: process.env.FC_SEED },
    only: { type: "string", multiple: true },
    module: { type: "string" },
    json: { type: "boolean", default: false },
  },
});

const options = {
  numRuns: Number(values.runs),
  ...(values.seed ? { seed: Number(values.seed) } : {}),
  ...(values.only ? { only: values.only } : {}),
};

/** A module by path or package name, relative paths from the current directory. */
async function importModule(specifier: string): Promise<unknown> {
  const isPath = specifier.startsWith(".") || specifier.startsWith("/");
  return import(isPath ? pathToFileURL(specifier).href : specifier);
}

const targets: { name: string; load: () => Promise<unknown>; strict: boolean }[] = values.module
  ? [{ name: values.module, load: () => importModule(values.module as string), strict: true }]
  : [
      { name: "@pi-sessions/core", load: async () => core, strict: true },
      { name: "reference 1.6.0", load: () => import(REFERENCE.href), strict: false },
    ];

const reports: ConformanceReport[] = [];
let ok = true;
for (const target of targets) {
  const module = (await target.load()) as object;
  // Model runs through both stores of each implementation: memory and JSONL files.
  const stores = [memoryStore(module), jsonlFileStore(module)];
  const report = await runConformance(module, { ...options, name: target.name, stores });
  reports.push(report);
  if (!values.json) console.log(`${formatReport(report)}\n`);
  if (report.failed > 0) ok = false;
  if (target.strict && report.referenceDeviations.length > 0) ok = false;
}
if (values.json) console.log(JSON.stringify(reports, null, 2));
process.exitCode = ok ? 0 : 1;
