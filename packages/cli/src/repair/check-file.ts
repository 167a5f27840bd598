/**
 * Checking one file for `check`: its problems with line numbers (and, for damaged lines, a
 * short quote of the line), and — with `--repair` — the repair and what is left after it.
 */

import { type ReadSessionOptions, systemEnv } from "@pi-sessions/core";
import { readRegularFile, readSessionFile } from "@pi-sessions/core/internal";
import { CliError, ExitCode } from "../io/errors.js";
import { truncate } from "../io/output.js";
import {
  type LoadedSession,
  legacyIdEnv,
  loadSession,
  NotASessionError,
} from "../session/load-session.js";
import { fieldProblems, type LinedRecord, type Problem, problemsOf } from "../session/problems.js";
import { commitRepair } from "./commit.js";
import { lineStarts } from "./lines.js";
import { planRepair, type RepairAction } from "./plan.js";

/** A problem as `check` reports it: with a quote of the line for damaged lines. */
export interface ReportedProblem extends Omit<Problem, "kind"> {
  readonly kind: Problem["kind"] | "not-a-session" | "unreadable";
  /** The start of the damaged line, as JSON text so control characters stay visible. */
  readonly quote?: string;
}

/** What `check` found (and did) for one file. */
export interface FileReport {
  readonly path: string;
  /** Problems found before any repair. */
  readonly problems: readonly ReportedProblem[];
  /** Present when `--repair` wrote the file. */
  readonly repair?: { readonly backup: string; readonly actions: readonly RepairAction[] };
  /** With `--repair`: the problems left afterwards (none fixable remain). */
  readonly remaining?: readonly ReportedProblem[];
  /** With `--repair`: why the file was not rewritten (read-only, in use, changed meanwhile). */
  readonly refused?: string;
  /** The exit code this file calls for: 0 clean, 1 problems, 2 unreadable. */
  readonly exitCode: number;
}

/** Characters of a damaged line quoted in the report. */
const QUOTE_CHARS = 60;

/**
 * Bytes read from the start of a damaged line for its quote: far more than 60 characters need
 * (4 bytes each at most), so whitespace that `truncate` folds away rarely shortens a quote,
 * and never a whole line: a damaged line may be 200 MB.
 */
const QUOTE_BYTES = 4096;

/** Adds quotes of damaged lines (their starts, read from the file in one streaming pass). */
function withQuotes(problems: readonly Problem[], path: string): ReportedProblem[] {
  const quoted = (p: Problem) =>
    (p.kind === "invalid-json" || p.kind === "not-an-object") && p.line !== undefined;
  const wanted = new Set(problems.filter(quoted).map((p) => p.line as number));
  if (wanted.size === 0) return [...problems];
  const starts = lineStarts(path, wanted, QUOTE_BYTES);
  return problems.map((p) => {
    if (!quoted(p)) return p;
    const raw = starts.get(p.line as number)?.toString("utf8") ?? "";
    return { ...p, quote: JSON.stringify(truncate(raw, QUOTE_CHARS)) };
  });
}

/**
 * The header and entries of a loaded file, each with its line, as the field check takes them.
 * The entries are those `loadSession` returned (migrated in memory for a legacy file, so a v1
 * file is checked as the v3 entries it stands for); the lines come from a second read with
 * the same seeded env and line bound, because `LoadedSession` does not carry them.
 */
function* linedRecords(
  session: LoadedSession,
  options: ReadSessionOptions,
): Generator<LinedRecord> {
  yield { record: session.header, line: session.headerLine };
  const read = readSessionFile(session.path, legacyIdEnv(), session.path, options);
  const lines = read.kind === "loaded" ? read.loaded.entryLines : undefined;
  for (let i = 0; i < session.entries.length; i++) {
    yield { record: session.entries[i] as LinedRecord["record"], line: lines?.lineOf(i) };
  }
}

/** The problems of a file, or the one problem that it is not a session (BOM said as such). */
function problemsOfFile(path: string, options: ReadSessionOptions): ReportedProblem[] {
  try {
    const session = loadSession(path, undefined, options);
    return withQuotes(problemsOf(session, fieldProblems(linedRecords(session, options))), path);
  } catch (error) {
    if (error instanceof NotASessionError) {
      return [{ kind: "not-a-session", message: error.message, fixable: false }];
    }
    throw error;
  }
}

/** The exit code for a list of problems. */
function codeOf(problems: readonly ReportedProblem[]): number {
  if (problems.some((p) => p.kind === "unreadable")) return ExitCode.usage;
  return problems.length > 0 ? ExitCode.problems : ExitCode.ok;
}

/** Options of {@link checkFile}. */
export interface CheckFileOptions {
  /** Fix what can be fixed (atomically, with a backup), then check again. */
  readonly repair?: boolean;
  /** Rewrite a read-only file too (refused otherwise). */
  readonly force?: boolean;
  /**
   * Rethrow what makes the file unusable (unreadable, a refused rewrite): a single named
   * file ends the command with exit 2 at once; otherwise it goes into the report.
   */
  readonly strict?: boolean;
  /** The line bound of the read (see `lineLimitOf`). */
  readonly maxLineBytes?: number;
}

/**
 * Checks one file; with `repair`, fixes what can be fixed and checks again. A file that
 * cannot be read becomes an "unreadable" problem, a refused rewrite (read-only, in use,
 * changed meanwhile) a `refused` reason; both exit 2 (unless `strict`, which rethrows).
 */
export function checkFile(path: string, options: CheckFileOptions = {}): FileReport {
  const read: ReadSessionOptions =
    options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes };
  let problems: ReportedProblem[];
  try {
    problems = problemsOfFile(path, read);
  } catch (error) {
    if (options.strict === true || !(error instanceof CliError)) throw error;
    problems = [{ kind: "unreadable", message: error.message, fixable: false }];
  }
  if (options.repair !== true || !problems.some((p) => p.fixable)) {
    return { path, problems, exitCode: codeOf(problems) };
  }
  let backup: string;
  let plan: ReturnType<typeof planRepair>;
  try {
    plan = planRepair(readRegularFile(path), { migrate: true, structural: true, env: systemEnv });
    if (!plan.changed) return { path, problems, exitCode: codeOf(problems) };
    backup = commitRepair(path, plan, { force: options.force === true });
  } catch (error) {
    if (options.strict === true || !(error instanceof CliError)) throw error;
    return { path, problems, refused: error.message, exitCode: ExitCode.usage };
  }
  const remaining = problemsOfFile(path, read);
  return {
    path,
    problems,
    repair: { backup, actions: plan.actions },
    remaining,
    exitCode: codeOf(remaining),
  };
}
