/**
 * @pi-sessions/cli — the `pi-sessions` command as a library: {@link runCli} runs it against any
 * {@link CliIo}, so other tools (and tests) can call it without spawning a process; the
 * read-only loader, the problem list of `check` and the byte-preserving repair planner are
 * usable on their own.
 *
 * @packageDocumentation
 */

export type { FileReport, ReportedProblem } from "./check-file.js";
export { checkFile } from "./check-file.js";
export { resolveEntryRef } from "./entry-ref.js";
export { contentText, entrySummary, messageSummary } from "./entry-summary.js";
export type { ExitCodeValue } from "./errors.js";
export { CliError, ExitCode, notFoundError, oneLine, usageError } from "./errors.js";
export { CHARS_PER_TOKEN, estimateTokens, IMAGE_TOKENS, messageBytes } from "./estimate.js";
export type { CliIo, OutputStream } from "./io.js";
export { processIo } from "./io.js";
export type { LoadedSession } from "./load-session.js";
export { countLeaves, legacyIdEnv, loadSession, NotASessionError } from "./load-session.js";
export type { Colors } from "./output.js";
export {
  colorEnabled,
  colorsFor,
  formatBytes,
  formatCount,
  formatDate,
  pad,
  truncate,
  writeJson,
  writeLine,
} from "./output.js";
export { parsePositiveInt } from "./parse-args.js";
export type { Problem, ProblemKind } from "./problems.js";
export { isFixable, problemsOf } from "./problems.js";
export { createProgram, runCli, VERSION } from "./program.js";
export type { Progress } from "./progress.js";
export { noProgress, PROGRESS_MIN_TOTAL, ProgressBar, progressOn } from "./progress.js";
export { backupPathFor, commitRepair, replaceFileAtomic } from "./repair/commit.js";
export { joinLines, splitLines } from "./repair/lines.js";
export type { RepairAction, RepairOptions, RepairPlan } from "./repair/plan.js";
export { NotRepairableError, planRepair } from "./repair/plan.js";
export { resolveSessionArg } from "./resolve-session.js";
export type { CommandContext, CommonOptions } from "./runtime.js";
export { CliRuntime, sessionsRootOf, withCommonOptions } from "./runtime.js";
export { isDirectory, jsonlFilesIn, sessionFilesUnder } from "./session-files.js";
export type { ListScope, SessionRow } from "./session-rows.js";
export { fullRowOf, listSessionRows, rowOf } from "./session-rows.js";
export type { Targets } from "./targets.js";
export { resolveTargets } from "./targets.js";
export type { TreeRow } from "./tree-view.js";
export { treeRows } from "./tree-view.js";
