/**
 * @pi-sessions/cli — the `pi-sessions` command as a library: {@link runCli} runs it against any
 * {@link CliIo}, so other tools (and tests) can call it without spawning a process; the
 * read-only loader, the problem list of `check` and the byte-preserving repair planner are
 * usable on their own.
 *
 * @packageDocumentation
 */

export type { ExitCodeValue } from "./io/errors.js";
export { CliError, ExitCode, notFoundError, oneLine, usageError } from "./io/errors.js";
export type { CliIo, OutputStream } from "./io/io.js";
export { processIo } from "./io/io.js";
export type { Colors } from "./io/output.js";
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
} from "./io/output.js";
export { parsePositiveInt } from "./io/parse-args.js";
export type { Progress } from "./io/progress.js";
export { noProgress, PROGRESS_MIN_TOTAL, ProgressBar, progressOn } from "./io/progress.js";
export type { CommandContext, CommonOptions } from "./io/runtime.js";
export { CliRuntime, sessionsRootOf, withCommonOptions } from "./io/runtime.js";
export { isDirectory, jsonlFilesIn, sessionFilesUnder } from "./io/session-files.js";
export { createProgram, runCli, VERSION } from "./program.js";
export type { FileReport, ReportedProblem } from "./repair/check-file.js";
export { checkFile } from "./repair/check-file.js";
export { backupPathFor, commitRepair, replaceFileAtomic } from "./repair/commit.js";
export { joinLines, splitLines } from "./repair/lines.js";
export type { RepairAction, RepairOptions, RepairPlan } from "./repair/plan.js";
export { NotRepairableError, planRepair } from "./repair/plan.js";
export { resolveEntryRef } from "./session/entry-ref.js";
export { contentText, entrySummary, messageSummary } from "./session/entry-summary.js";
export { CHARS_PER_TOKEN, estimateTokens, IMAGE_TOKENS, messageBytes } from "./session/estimate.js";
export type { LoadedSession } from "./session/load-session.js";
export { countLeaves, legacyIdEnv, loadSession, NotASessionError } from "./session/load-session.js";
export type { Problem, ProblemKind } from "./session/problems.js";
export { isFixable, problemsOf } from "./session/problems.js";
export { resolveSessionArg } from "./session/resolve-session.js";
export type { ListScope, SessionRow } from "./session/session-rows.js";
export { fullRowOf, listSessionRows, rowOf } from "./session/session-rows.js";
export type { Targets } from "./session/targets.js";
export { resolveTargets } from "./session/targets.js";
export type { TreeRow } from "./session/tree-view.js";
export { treeRows } from "./session/tree-view.js";
