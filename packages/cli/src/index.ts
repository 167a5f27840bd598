/**
 * @pi-sessions/cli — the `pi-sessions` command as a library: {@link runCli} runs it against any
 * {@link CliIo}, so other tools (and tests) can call it without spawning a process; the
 * read-only loader, the problem list of `check` and the byte-preserving repair planner are
 * usable on their own.
 *
 * @packageDocumentation
 */

// Every module listed is re-exported whole (all its exports are public) but problems.js, whose
// helpers for check-file.ts stay inside; api/cli.api.md shows the resulting surface.
export * from "./io/errors.js";
export * from "./io/io.js";
export * from "./io/line-limit.js";
export * from "./io/output.js";
export * from "./io/parse-args.js";
export * from "./io/progress.js";
export * from "./io/runtime.js";
export * from "./io/session-files.js";
export * from "./io/terminal-output.js";
export * from "./io/terminal-text.js";
export * from "./program.js";
export * from "./repair/check-file.js";
export * from "./repair/commit.js";
export * from "./repair/lines.js";
export * from "./repair/plan.js";
export * from "./session/entry-ref.js";
export * from "./session/entry-summary.js";
export * from "./session/estimate.js";
export * from "./session/load-session.js";
export type { Problem, ProblemKind } from "./session/problems.js";
export { isFixable, problemsOf } from "./session/problems.js";
export * from "./session/resolve-session.js";
export * from "./session/session-rows.js";
export * from "./session/targets.js";
export * from "./session/tree-view.js";
export type { FileChange } from "./sync/session-file.js";
export { sessionsUnder, syncFolders } from "./sync/sync-folders.js";
export { type PairOptions, type PairResult, syncPair } from "./sync/sync-pair.js";
