/**
 * Types of the conformance suite: scenarios, the context they run in, and the report.
 */
import type { SessionModuleLike } from "../api-calls/manager-api.js";
import type { ManagerFactory } from "../stores/manager-factory.js";

/** Where a scenario runs: the module under test and helpers for temporary files. */
export interface ScenarioContext {
  /** The module under test (its exports were checked against the scenario's `needs`). */
  readonly module: SessionModuleLike;
  /** A fresh empty directory, removed when the suite ends. */
  tempDir(): string;
  /** Releases a manager's file lock if the implementation has one (`close()`), else nothing. */
  close(manager: unknown): void;
  /**
   * Runs `f` with `PI_CODING_AGENT_DIR` set to `agentDir` (SPEC §1.1), restoring it after;
   * for the few scenarios about the default session directory.
   */
  withAgentDir<T>(agentDir: string, f: () => Promise<T> | T): Promise<T>;
}

/** One deterministic conformance scenario. It throws (anything) to fail. */
export interface Scenario {
  /** Stable id, e.g. `append/compaction` or `fix/W6-non-object-lines`. */
  id: string;
  /** What is checked, in one line. */
  title: string;
  /** The SPEC section(s) it checks. */
  spec: string;
  /**
   * The SPEC §12 row (`W6`) when this is a [Fix] case: an implementation that fails it has the
   * reference's known weakness, and is reported as a reference deviation, not a failure.
   */
  fix?: string;
  /** Exports the scenario uses (default: `SessionManager`). */
  needs?: readonly (keyof SessionModuleLike)[];
  /** Skipped where the behaviour does not apply (e.g. POSIX permissions on Windows). */
  skip?: () => string | undefined;
  run(ctx: ScenarioContext): void | Promise<void>;
}

/** A scenario or model run that did not pass. */
export interface ConformanceFailure {
  kind: "scenario" | "model";
  id: string;
  title: string;
  spec: string;
  message: string;
}

/** A [Fix] case the implementation fails the way the reference does (SPEC §12). */
export interface ReferenceDeviation {
  fix: string;
  id: string;
  title: string;
  message: string;
}

/** Options of `runConformance`. */
export interface ConformanceOptions {
  /** Name shown in the report (default "implementation"). */
  name?: string;
  /** Model-based runs (default 100; 0 skips them). */
  numRuns?: number;
  /** Seed of the model-based runs (default: random, reported for replay). */
  seed?: number;
  /**
   * The stores the model-based runs use, `numRuns` each (default: the module's
   * `SessionManager.inMemory()`); e.g. `[memoryStore(m), jsonlFileStore(m)]`, or your own.
   */
  stores?: readonly ManagerFactory[];
  /** Commands per model run (default 40). */
  maxCommands?: number;
  /** Only scenarios whose id starts with one of these prefixes. */
  only?: readonly string[];
  /** How long an asynchronous scenario may take (default 60,000 ms). */
  timeoutMs?: number;
  /** Parent of the temporary directories (default: the OS temp dir). */
  tmpDir?: string;
  /** Called after each scenario (progress output). */
  onScenario?: (id: string, outcome: "passed" | "failed" | "deviation" | "skipped") => void;
}

/** The outcome of `runConformance`. */
export interface ConformanceReport {
  name: string;
  /** Scenarios passed plus model runs passed. */
  passed: number;
  /** Scenarios failed plus failed model runs (a model run stops at its first failure). */
  failed: number;
  /** [Fix] scenarios failed the reference's way: neither passed nor failed. */
  referenceDeviations: ReferenceDeviation[];
  failures: ConformanceFailure[];
  scenarios: { total: number; passed: number; failed: number; deviations: number; skipped: number };
  /** Model runs over every store: `total` is `numRuns` times the number of stores. */
  modelRuns: { total: number; passed: number; failed: number; seed: number; path?: string };
  durationMs: number;
}
