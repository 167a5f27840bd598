/**
 * Model-based testing of any SessionManager: random command sequences (`fc.commands`) run by
 * `fc.modelRun` against a fresh in-memory manager from a factory and the reference model,
 * with every observable compared after each command.
 */
import fc from "fast-check";
import { asSessionManager, type SessionManagerFactory, type SessionManagerLike } from "./api.js";
import {
  AppendCompactionCommand,
  AppendContextEditCommand,
  AppendCustomEntryCommand,
  AppendCustomMessageEntryCommand,
  AppendLabelChangeCommand,
  AppendMessageCommand,
  AppendModelChangeCommand,
  AppendSessionInfoCommand,
  AppendThinkingLevelChangeCommand,
  AppendUsageCommand,
  type SessionCommand,
} from "./append-commands.js";
import * as A from "./args.js";
import { assertMatchesModel } from "./check.js";
import { describeThrown } from "./json.js";
import { SessionModel } from "./session-model.js";
import {
  BranchCommand,
  BranchWithSummaryCommand,
  CreateBranchedSessionCommand,
  ReadCommand,
  ResetLeafCommand,
} from "./tree-commands.js";

/** Options of the model-based run. */
export interface SessionModelOptions {
  /** Most commands per sequence (default 40). */
  maxCommands?: number;
}

/**
 * One arbitrary per SessionManager method, weighted so sessions grow: appends dominate,
 * branch moves and errors (unknown targets, invalid edits) are regular.
 */
export function sessionCommandArbitraries(): fc.Arbitrary<SessionCommand>[] {
  const w = <T>(weight: number, arb: fc.Arbitrary<T>) =>
    Array(weight).fill(arb) as fc.Arbitrary<T>[];
  return [
    ...w(
      6,
      A.messageArb.map((m) => new AppendMessageCommand(m)),
    ),
    fc.constantFrom("off", "high", "").map((l) => new AppendThinkingLevelChangeCommand(l)),
    fc
      .tuple(fc.constantFrom("openai", "anthropic"), fc.constantFrom("m1", "m2"))
      .map(([p, m]) => new AppendModelChangeCommand(p, m)),
    ...w(
      2,
      fc
        .tuple(
          A.textArb,
          fc.oneof(
            { arbitrary: A.targetArb, weight: 6 },
            fc.constant(null),
            fc.constant("" as const),
          ),
          fc.nat(99_999),
          A.extrasArb,
        )
        .map(([s, keep, tokens, extras]) => new AppendCompactionCommand(s, keep, tokens, extras)),
    ),
    fc
      .tuple(fc.constantFrom("ext", "x"), A.dataArb)
      .map(([t, d]) => new AppendCustomEntryCommand(t, d)),
    fc
      .tuple(fc.constantFrom("ext", "x"), A.userContentArb, fc.boolean(), A.dataArb)
      .map(([t, c, d, x]) => new AppendCustomMessageEntryCommand(t, c, d, x)),
    A.sessionNameArb.map((n) => new AppendSessionInfoCommand(n)),
    ...w(
      2,
      fc.tuple(A.targetArb, A.labelArb).map(([t, l]) => new AppendLabelChangeCommand(t, l)),
    ),
    fc
      .tuple(
        fc.constantFrom("cache_warm", "future-kind"),
        fc.constantFrom("openai", "anthropic"),
        fc.constantFrom("m1", "m2"),
        A.usageArb,
        fc.constantFrom(undefined, "", "warm"),
      )
      .map(([k, p, m, u, n]) => new AppendUsageCommand(k, p, m, u, n)),
    ...w(
      2,
      fc.tuple(A.targetArb, A.replacementArb).map(([t, r]) => new AppendContextEditCommand(t, r)),
    ),
    ...w(
      2,
      A.targetArb.map((t) => new BranchCommand(t)),
    ),
    fc.constant(new ResetLeafCommand()),
    ...w(
      2,
      fc
        .tuple(fc.option(A.targetArb, { nil: null }), A.textArb, A.extrasArb)
        .map(([t, s, e]) => new BranchWithSummaryCommand(t, s, e)),
    ),
    A.targetArb.map((t) => new CreateBranchedSessionCommand(t)),
    A.targetArb.map((t) => new ReadCommand(t)),
  ];
}

/** Random command sequences over every method (shrinkable: fewer and simpler commands). */
export function sessionCommands(
  options: SessionModelOptions = {},
): fc.Arbitrary<Iterable<SessionCommand>> {
  return fc.commands(sessionCommandArbitraries(), {
    maxCommands: options.maxCommands ?? 40,
    size: "max",
  });
}

/**
 * The setup of one run: a fresh manager from `factory`, checked to have the API and to start
 * empty (no entries, null leaf, a version 3 header), and a fresh model.
 */
export function setupSessionModel(factory: SessionManagerFactory): {
  model: SessionModel;
  real: SessionManagerLike;
} {
  const real = asSessionManager(factory());
  if (real instanceof Error) throw real;
  const model = new SessionModel();
  model.sessionId = real.getSessionId();
  assertMatchesModel("the factory (a fresh session)", model, real);
  return { model, real };
}

/**
 * A fast-check property: every command sequence agrees with the model. Use with
 * `fc.assert(sessionModelProperty(factory), { numRuns })` in any test runner.
 */
export function sessionModelProperty(
  factory: SessionManagerFactory,
  options: SessionModelOptions = {},
): fc.IPropertyWithHooks<[Iterable<SessionCommand>]> {
  return fc.property(sessionCommands(options), (commands) => {
    fc.modelRun(() => setupSessionModel(factory), commands);
  });
}

/** What {@link runSessionModel} found. */
export interface SessionModelReport {
  /** Runs requested. */
  numRuns: number;
  /** Runs that agreed with the model before the first failure (all of them on success). */
  passed: number;
  failed: boolean;
  /** The seed (and, on failure, the path) to replay: `{ seed, path }` in fast-check's parameters. */
  seed: number;
  path?: string;
  /** The shrunk failing command sequence and what differed. */
  counterexample?: string;
  error?: string;
}

/** Parameters of {@link runSessionModel}: run count, seed, replay path, sequence length. */
export interface RunSessionModelOptions extends SessionModelOptions {
  numRuns?: number;
  seed?: number;
  path?: string;
}

/**
 * Runs the model-based property and reports instead of throwing (for reports and CLIs).
 * A factory that throws or returns something without the API counts as a failed run.
 */
export function runSessionModel(
  factory: SessionManagerFactory,
  options: RunSessionModelOptions = {},
): SessionModelReport {
  return modelReport(
    options,
    fc.check(sessionModelProperty(factory, options), checkParameters(options)),
  );
}

/** The `fc.check` parameters of a model run: its run count, and a seed and path to replay. */
export function checkParameters(options: RunSessionModelOptions): fc.Parameters<[unknown]> {
  return {
    numRuns: options.numRuns ?? 100,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.path === undefined ? {} : { path: options.path }),
  };
}

/** The report of a finished model run; a failure keeps its seed, path and shrunk counterexample. */
export function modelReport(
  options: RunSessionModelOptions,
  details: fc.RunDetails<[unknown]>,
): SessionModelReport {
  const numRuns = options.numRuns ?? 100;
  if (!details.failed)
    return { numRuns, passed: details.numRuns, failed: false, seed: details.seed };
  const error = details.errorInstance;
  return {
    numRuns,
    passed: Math.max(0, details.numRuns - 1),
    failed: true,
    seed: details.seed,
    ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
    ...(details.counterexample ? { counterexample: String(details.counterexample[0]) } : {}),
    error: error === undefined ? "failed" : describeThrown(error),
  };
}
