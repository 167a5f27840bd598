/**
 * Model-based testing of any SessionManager: random command sequences (`fc.commands`) run by
 * `fc.modelRun` against a fresh in-memory manager from a factory and the reference model,
 * with every observable compared after each command.
 */
import fc from "fast-check";
import { targetArb } from "../api-calls/call-args.js";
import type { SessionManagerFactory, SessionManagerLike } from "../api-calls/manager-api.js";
import { type CallName, type CallOf, weightedCalls } from "../api-calls/manager-calls.js";
import { asSessionManager } from "../api-calls/manager-methods.js";
import {
  AppendCustomEntryCommand,
  AppendCustomMessageEntryCommand,
  AppendMessageCommand,
  AppendModelChangeCommand,
  AppendSessionInfoCommand,
  AppendThinkingLevelChangeCommand,
  AppendUsageCommand,
  type SessionCommand,
} from "./append-commands.js";
import { assertMatchesModel } from "./check.js";
import { describeThrown } from "./json.js";
import { SessionModel } from "./session-model.js";
import {
  AppendCompactionCommand,
  AppendContextEditCommand,
  AppendLabelChangeCommand,
} from "./targeted-append-commands.js";
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
 * The model's command for each call of `MANAGER_CALLS`: typed over every call name, so a call
 * added there does not compile here until the model predicts what it does.
 */
const MODEL_COMMANDS: { readonly [K in CallName]: (call: CallOf<K>) => SessionCommand } = {
  appendMessage: (c) => new AppendMessageCommand(c.message),
  appendThinkingLevelChange: (c) => new AppendThinkingLevelChangeCommand(c.level),
  appendModelChange: (c) => new AppendModelChangeCommand(c.provider, c.modelId),
  appendCompaction: (c) => new AppendCompactionCommand(c.summary, c.keep, c.tokens, c.extras),
  appendCustomEntry: (c) => new AppendCustomEntryCommand(c.customType, c.data),
  appendCustomMessageEntry: (c) =>
    new AppendCustomMessageEntryCommand(c.customType, c.content, c.display, c.details),
  appendSessionInfo: (c) => new AppendSessionInfoCommand(c.name),
  appendLabelChange: (c) => new AppendLabelChangeCommand(c.target, c.label),
  appendUsage: (c) => new AppendUsageCommand(c.kind, c.provider, c.model, c.usage, c.note),
  appendContextEdit: (c) => new AppendContextEditCommand(c.target, c.replacement),
  branch: (c) => new BranchCommand(c.target),
  resetLeaf: () => new ResetLeafCommand(),
  branchWithSummary: (c) => new BranchWithSummaryCommand(c.target, c.summary, c.extras),
  createBranchedSession: (c) => new CreateBranchedSessionCommand(c.target),
};

/**
 * One arbitrary per SessionManager call, repeated as often as its weight in `MANAGER_CALLS`
 * says (`fc.commands` takes a plain list), plus the getters on one target.
 */
export function sessionCommandArbitraries(): fc.Arbitrary<SessionCommand>[] {
  // The table is typed per call name; indexing it by a union loses the pairing, hence the cast.
  const commands = weightedCalls((call) =>
    (MODEL_COMMANDS[call.op] as (c: CallOf) => SessionCommand)(call),
  );
  return [
    ...commands.flatMap(({ weight, arbitrary }) => Array<typeof arbitrary>(weight).fill(arbitrary)),
    targetArb.map((t) => new ReadCommand(t)),
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
