/**
 * `runConformance(module, options)`: runs every deterministic scenario and the model-based
 * runs against a session module with the reference's export names, and reports. It never
 * throws for a failing implementation: a missing export, a wrong value or an exception inside
 * the implementation all become entries of the report.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionModuleLike } from "../api-calls/manager-api.js";
import { clip, describeThrown } from "../model/json.js";
import { runStoreModel } from "../model/run-store-model.js";
import { type ManagerFactory, memoryStore } from "../stores/manager-factory.js";
import { ALL_SCENARIOS } from "./scenarios/index.js";
import type {
  ConformanceFailure,
  ConformanceOptions,
  ConformanceReport,
  ReferenceDeviation,
  Scenario,
  ScenarioContext,
} from "./types.js";

const AGENT_DIR_ENV = "PI_CODING_AGENT_DIR";

/** A scenario context over `module`, collecting the temporary directories it hands out. */
function makeContext(
  module: SessionModuleLike,
  options: ConformanceOptions,
  dirs: string[],
): ScenarioContext {
  return {
    module,
    tempDir() {
      const dir = mkdtempSync(join(options.tmpDir ?? tmpdir(), "pi-conformance-"));
      dirs.push(dir);
      return dir;
    },
    close(manager) {
      const close = (manager as { close?: unknown } | null)?.close;
      if (typeof close === "function") close.call(manager);
    },
    async withAgentDir(agentDir, f) {
      const previous = process.env[AGENT_DIR_ENV];
      process.env[AGENT_DIR_ENV] = agentDir;
      try {
        return await f();
      } finally {
        if (previous === undefined) delete process.env[AGENT_DIR_ENV];
        else process.env[AGENT_DIR_ENV] = previous;
      }
    },
  };
}

/** The exports a scenario needs that `module` does not have (a throwing getter counts). */
function missingExports(module: unknown, scenario: Scenario): string[] {
  const needs = scenario.needs ?? ["SessionManager"];
  if (module === null || typeof module !== "object") return [...needs];
  const record = module as Record<string, unknown>;
  return needs.filter((name) => {
    try {
      return record[name] === undefined || record[name] === null;
    } catch {
      return true;
    }
  });
}

const messageOf = (e: unknown): string => clip(describeThrown(e), 2000);

/** Runs one scenario; the error message when it failed, else undefined. */
async function runScenario(
  scenario: Scenario,
  module: unknown,
  ctx: ScenarioContext,
  timeoutMs: number,
): Promise<string | undefined> {
  const missing = missingExports(module, scenario);
  if (missing.length > 0) return `the module has no export ${missing.join(", ")}`;
  let timer: NodeJS.Timeout | undefined;
  // Only an asynchronous call can be timed out; a synchronous endless loop hangs the caller.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([Promise.resolve().then(() => scenario.run(ctx)), timeout]);
    return undefined;
  } catch (e) {
    return messageOf(e);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the conformance suite against `module` — any object with the reference session
 * module's export names (`SessionManager`, `buildSessionContext`, `parseSessionEntries`,
 * `migrateSessionEntries`, ...). Deterministic scenarios cover the SPEC's examples, every
 * append, tree, labels, names, context, file round trips, migration and the observable [Fix]
 * rows of SPEC §12; then `numRuns` model-based runs on each of `options.stores` (default:
 * `SessionManager.inMemory()`) compare random command sequences with the reference model.
 *
 * A failed [Fix] scenario is a *reference deviation* (the implementation has the reference's
 * known weakness), counted apart from passes and failures. Scenarios run one after another;
 * temporary directories are removed at the end. Never throws for a failing implementation.
 */
export async function runConformance(
  module: unknown,
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const started = performance.now();
  const dirs: string[] = [];
  const ctx = makeContext(module as SessionModuleLike, options, dirs);
  const failures: ConformanceFailure[] = [];
  const referenceDeviations: ReferenceDeviation[] = [];
  const scenarios = { total: 0, passed: 0, failed: 0, deviations: 0, skipped: 0 };
  const selected = ALL_SCENARIOS.filter(
    (s) => !options.only || options.only.some((prefix) => s.id.startsWith(prefix)),
  );
  for (const scenario of selected) {
    scenarios.total++;
    const skip = scenario.skip?.();
    if (skip !== undefined) {
      scenarios.skipped++;
      options.onScenario?.(scenario.id, "skipped");
      continue;
    }
    const error = await runScenario(scenario, module, ctx, options.timeoutMs ?? 60_000);
    const { id, title, spec, fix } = scenario;
    if (error === undefined) {
      scenarios.passed++;
    } else if (fix !== undefined && !error.startsWith("the module has no export")) {
      scenarios.deviations++;
      referenceDeviations.push({ fix, id, title, message: error });
    } else {
      scenarios.failed++;
      failures.push({ kind: "scenario", id, title, spec, message: error });
    }
    options.onScenario?.(id, error === undefined ? "passed" : fix ? "deviation" : "failed");
  }
  for (const dir of dirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // An implementation may leave a directory that cannot be removed (a held lock on
      // Windows, changed permissions); a leftover temp directory must not lose the report.
    }
  }
  const modelRuns = await runModelPart(module, options, failures);
  return {
    name: options.name ?? "implementation",
    passed: scenarios.passed + modelRuns.passed,
    failed: scenarios.failed + modelRuns.failed,
    referenceDeviations,
    failures,
    scenarios,
    modelRuns,
    durationMs: Math.round(performance.now() - started),
  };
}

/**
 * The model-based runs on every store (default: `SessionManager.inMemory()`), `numRuns` each;
 * failures are added to `failures`, one per failing store.
 */
async function runModelPart(
  module: unknown,
  options: ConformanceOptions,
  failures: ConformanceFailure[],
): Promise<ConformanceReport["modelRuns"]> {
  const numRuns = options.numRuns ?? 100;
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);
  const result: ConformanceReport["modelRuns"] = { total: 0, passed: 0, failed: 0, seed };
  if (numRuns <= 0) return result;
  const fail = (store: string, message: string) =>
    failures.push({
      kind: "model",
      // The in-memory run keeps the id it has always had; other stores are named after it.
      id: store === "memory" ? "model/session-manager" : `model/session-manager/${store}`,
      title:
        store === "memory"
          ? "random command sequences on SessionManager.inMemory() agree with the reference model"
          : `random command sequences on the ${store} store agree with the reference model`,
      spec: "§5–§9",
      message,
    });
  const statics = (module as Partial<SessionModuleLike> | null)?.SessionManager;
  if (typeof statics?.inMemory !== "function") {
    fail("memory", "the module has no SessionManager.inMemory");
    return { ...result, total: numRuns, failed: 1 };
  }
  const stores: readonly ManagerFactory[] = options.stores ?? [
    memoryStore(module as SessionModuleLike),
  ];
  for (const store of stores) {
    result.total += numRuns;
    try {
      const report = await runStoreModel(store, {
        numRuns,
        seed,
        ...(options.maxCommands === undefined ? {} : { maxCommands: options.maxCommands }),
      });
      result.passed += report.passed;
      if (!report.failed) continue;
      result.failed += 1;
      if (report.path && result.path === undefined) result.path = report.path;
      const replay = `replay with { seed: ${report.seed}, path: "${report.path}" }`;
      fail(store.name, `${report.counterexample ?? ""}\n${report.error ?? ""}\n${replay}`);
    } catch (e) {
      result.failed += 1;
      fail(store.name, messageOf(e));
    }
  }
  return result;
}

/** `scenarios X/Y, model runs N/M` — the one-line summary CI logs for each implementation. */
export function summarizeReport(report: ConformanceReport): string {
  const s = report.scenarios;
  const ran = s.total - s.skipped;
  const deviations = s.deviations > 0 ? `, ${s.deviations} reference deviations` : "";
  const skipped = s.skipped > 0 ? `, ${s.skipped} skipped` : "";
  return `scenarios ${s.passed}/${ran}${deviations}${skipped}, model runs ${report.modelRuns.passed}/${report.modelRuns.total}`;
}

/** The report as readable text: the summary, then deviations and failures with messages. */
export function formatReport(report: ConformanceReport): string {
  const lines = [
    `${report.name}: ${summarizeReport(report)} (${report.failed} failed, ${report.durationMs} ms, model seed ${report.modelRuns.seed})`,
  ];
  if (report.referenceDeviations.length > 0) {
    lines.push("  known reference deviations ([Fix] cases failed the reference's way):");
    for (const d of report.referenceDeviations) {
      lines.push(
        `    ${d.fix.padEnd(4)} ${d.id}: ${d.title}`,
        `         ${d.message.split("\n")[0]}`,
      );
    }
  }
  for (const f of report.failures) {
    lines.push(`  FAILED ${f.id} (${f.spec}): ${f.title}`);
    for (const line of f.message.split("\n")) lines.push(`    ${line}`);
  }
  return lines.join("\n");
}
