/**
 * @pi-sessions/cli — the `pi-sessions` command as a library: {@link runCli} runs it against any
 * {@link CliIo}, so other tools (and tests) can call it without spawning a process; the
 * read-only loader, the problem list of `check`, the byte-preserving repair planner and the
 * two-folder sync are usable on their own.
 *
 * The surface is listed name by name; the commands' own parts (argument parsing, output
 * formatting, listing rows, the tree view) are internal. api/cli.api.md shows it in review.
 *
 * @packageDocumentation
 */

// --- the program -----------------------------------------------------------------------
export type { ExitCodeValue } from "./io/errors.js";
export { CliError, ExitCode } from "./io/errors.js";
export type { CliIo, OutputStream } from "./io/io.js";
export { processIo } from "./io/io.js";
export type { Progress } from "./io/progress.js";
export { noProgress } from "./io/progress.js";
export { createProgram, runCli, VERSION } from "./program.js";

// --- check and repair --------------------------------------------------------------------
export type { CheckFileOptions, FileReport, ReportedProblem } from "./repair/check-file.js";
export { checkFile } from "./repair/check-file.js";
export type { CommitOptions, KeptAttributes } from "./repair/commit.js";
export { commitRepair } from "./repair/commit.js";
export type { RepairAction, RepairOptions, RepairPlan } from "./repair/plan.js";
export { NotRepairableError, planRepair } from "./repair/plan.js";
// --- loading a session read-only -----------------------------------------------------------
export type { LoadedSession } from "./session/load-session.js";
export { loadSession, NotASessionError } from "./session/load-session.js";
export type { Problem, ProblemKind } from "./session/problems.js";
export { isFixable, problemsOf } from "./session/problems.js";

// --- sync of two copies or two sessions roots ------------------------------------------------
export type { FileChange } from "./sync/session-file.js";
export { syncFolders } from "./sync/sync-folders.js";
export { type PairOptions, type PairResult, syncPair } from "./sync/sync-pair.js";
