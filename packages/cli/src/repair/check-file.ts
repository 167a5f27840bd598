/**
 * Checking one file for `check`: its problems with line numbers (and, for damaged lines, a
 * short quote of the line), and — with `--repair` — the repair and what is left after it.
 */

import { readFileSync } from "node:fs";
import { systemEnv } from "@pi-sessions/core";
import { readSessionFile } from "@pi-sessions/core/internal";
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
import { splitLines } from "./lines.js";
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
  /** The exit code this file calls for: 0 clean, 1 problems, 2 unreadable. */
  readonly exitCode: number;
}

/** Characters of a damaged line quoted in the report. */
const QUOTE_CHARS = 60;

/** Adds quotes of damaged lines (read once from the file's bytes). */
function withQuotes(problems: readonly Problem[], bytes: Buffer): ReportedProblem[] {
  let lines: Buffer[] | undefined;
  return problems.map((p) => {
    if ((p.kind !== "invalid-json" && p.kind !== "not-an-object") || p.line === undefined) return p;
    lines ??= splitLines(bytes);
    const raw = lines[p.line - 1]?.toString("utf8") ?? "";
    return { ...p, quote: JSON.stringify(truncate(raw, QUOTE_CHARS)) };
  });
}

/**
 * The header and entries of a loaded file, each with its line, as the field check takes them.
 * The entries are those `loadSession` returned (migrated in memory for a legacy file, so a v1
 * file is checked as the v3 entries it stands for); the lines come from a second read with
 * the same seeded env, because `LoadedSession` does not carry them.
 */
function* linedRecords(session: LoadedSession): Generator<LinedRecord> {
  yield { record: session.header, line: session.headerLine };
  const read = readSessionFile(session.path, legacyIdEnv(), session.path);
  const lines = read.kind === "loaded" ? read.loaded.entryLines : undefined;
  for (let i = 0; i < session.entries.length; i++) {
    yield { record: session.entries[i] as LinedRecord["record"], line: lines?.lineOf(i) };
  }
}

/** The problems of a file, or the one problem that it is not a session / cannot be read. */
function problemsOfFile(path: string): ReportedProblem[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`, ExitCode.usage);
  }
  try {
    const session = loadSession(path);
    return withQuotes(problemsOf(session, fieldProblems(linedRecords(session))), bytes);
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

/**
 * Checks one file; with `repair`, fixes what can be fixed (atomically, with a backup) and
 * checks again. `strict` rethrows an unreadable file (a single named file: exit 2 at once);
 * otherwise it becomes an "unreadable" problem so a directory check goes on.
 */
export function checkFile(path: string, repair: boolean, strict: boolean): FileReport {
  let problems: ReportedProblem[];
  try {
    problems = problemsOfFile(path);
  } catch (error) {
    if (strict || !(error instanceof CliError)) throw error;
    problems = [{ kind: "unreadable", message: error.message, fixable: false }];
  }
  if (!repair || !problems.some((p) => p.fixable)) {
    return { path, problems, exitCode: codeOf(problems) };
  }
  const plan = planRepair(readFileSync(path), { migrate: true, structural: true, env: systemEnv });
  if (!plan.changed) return { path, problems, exitCode: codeOf(problems) };
  const backup = commitRepair(path, plan);
  const remaining = problemsOfFile(path);
  return {
    path,
    problems,
    repair: { backup, actions: plan.actions },
    remaining,
    exitCode: codeOf(remaining),
  };
}
