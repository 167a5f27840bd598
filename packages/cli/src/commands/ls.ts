/**
 * `pi-sessions ls [--all] [--cwd DIR] [--no-index | --index FILE]` — sessions newest first,
 * with name (or first message), cwd, entries, branch tips, size and modification time. Read
 * through the session index by default (the same rows, reading only what changed since the
 * last run); `--no-index` reads every file.
 */

import { join, resolve } from "node:path";
import { encodeCwd, type PathProblem, scanSessionDir } from "@pi-sessions/core/internal";
import type { Command } from "commander";
import { ExitCode, usageError } from "../io/errors.js";
import { reportUnreadable, sessionFilesOf } from "../io/find-session-files.js";
import type { IndexOption } from "../io/index-file.js";
import { addOptions, type OptionSpec } from "../io/option-table.js";
import { formatBytes, formatDate, pad, truncate } from "../io/output.js";
import { progressOn } from "../io/progress.js";
import {
  type CliRuntime,
  type CommandContext,
  type CommonOptions,
  withCommonOptions,
} from "../io/runtime.js";
import type { ListScope } from "../session/ls-rows.js";
import { quickRowsOfAll } from "../session/quick-rows.js";
import { MIN_SHORT_ID, shortIdsAmong } from "../session/short-ids.js";
import type { SessionRow } from "../session/summary-rows.js";

/** Options of `ls`. */
export interface LsOptions extends CommonOptions {
  all?: boolean;
  cwd?: string;
  /** `--index FILE` (a string), `--no-index` (false), or neither (undefined: the default). */
  index?: IndexOption;
}

/** Width of the text column when stdout is not a terminal (a pipe has no width). */
const DEFAULT_TEXT_WIDTH = 60;

/**
 * `truncate(text, width)` without flattening all of a long text (a first message can be a
 * whole pasted file). Flattening a prefix gives a prefix of the whole text's flattening, so
 * when the prefix flattens to more than `width` characters the cut falls inside it: its first
 * `width - 1` are the answer's.
 */
function cell(text: string, width: number): string {
  const head = 2 * width + 16;
  if (width > 1 && text.length > head) {
    const start = truncate(text.slice(0, head), width + 1);
    if (start.length > width) return `${start.slice(0, width - 1)}…`;
  }
  return truncate(text, width);
}

/**
 * The table: a header line, then one line per session, written at once (ten thousand sessions
 * are twenty thousand lines: one write each would cost more than the listing).
 */
function printTable(
  ctx: CommandContext,
  rows: readonly SessionRow[],
  scope: ListScope,
  shortId: (id: string) => string,
): void {
  const c = ctx.colors;
  const columns = ctx.io.stdout.columns;
  const ids = rows.map((row) => shortId(row.id));
  const idWidth = ids.reduce((width, id) => Math.max(width, id.length), MIN_SHORT_ID);
  const fixed = 16 + 2 + 7 + 2 + 8 + 2 + 8 + 2 + idWidth + 2;
  const textWidth = columns !== undefined ? Math.max(20, columns - fixed - 1) : DEFAULT_TEXT_WIDTH;
  const lines = [
    c.bold(
      `${pad("MODIFIED", 16)}  ${pad("ENTRIES", 7, true)}  ${pad("BRANCHES", 8, true)}  ${pad("SIZE", 8, true)}  ${pad("ID", idWidth)}  NAME / FIRST MESSAGE`,
    ),
  ];
  const indent = " ".repeat(fixed);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as SessionRow;
    const text =
      row.name !== undefined
        ? c.cyan(cell(row.name, textWidth))
        : cell(row.firstMessage, textWidth);
    const warn =
      row.problems > 0
        ? c.yellow(` [${row.problems} problem${row.problems === 1 ? "" : "s"}]`)
        : "";
    lines.push(
      `${formatDate(row.modified)}  ${pad(String(row.entries), 7, true)}  ${pad(String(row.branches), 8, true)}  ${pad(formatBytes(row.size), 8, true)}  ${c.dim(pad(ids[i] as string, idWidth))}  ${text}${warn}`,
    );
    if (scope.all) lines.push(c.dim(`${indent}${row.cwd || "(no cwd)"}`));
  }
  // Each line made terminal-safe on its own: a newline or tab in a cwd shows, never breaks rows.
  ctx.outLines(lines);
}

/** What `ls` found, as one summary line for stderr-free scripts to ignore. */
function summary(rows: readonly SessionRow[]): string {
  const bytes = rows.reduce((sum, r) => sum + r.size, 0);
  return `${rows.length} session${rows.length === 1 ? "" : "s"}, ${formatBytes(bytes)}`;
}

/**
 * The directory `--cwd` names, relative paths resolved against our working directory. `~`,
 * `~/…` and `file://` forms are passed on as given: core's cwd resolution expands them the
 * way pi does (SPEC §1.2), which a plain path resolve would not.
 */
export function cwdOption(ctx: CommandContext, cwd: string | undefined): string {
  if (cwd === undefined) return ctx.io.cwd;
  if (cwd === "~" || cwd.startsWith("~/") || cwd.startsWith("file:")) return cwd;
  return resolve(ctx.io.cwd, cwd);
}

/**
 * What `ls` lists from, as core's walk sees it: the whole root for `--all` (unsorted: only
 * counted), else the files in the root and in the cwd's own directory. Throws exit 2 when the
 * root cannot be read.
 */
function scanOf(
  ctx: CommandContext,
  scope: ListScope,
): { files: string[]; problems: PathProblem[] } {
  if (scope.all) return sessionFilesOf(ctx.sessionsRoot, false);
  const top = scanSessionDir(ctx.sessionsRoot);
  if (top.rootProblem !== undefined) {
    throw usageError(`cannot read ${ctx.sessionsRoot}: ${top.rootProblem.reason}`);
  }
  const own = scanSessionDir(join(ctx.sessionsRoot, encodeCwd(scope.cwd)));
  return { files: [...top.files, ...own.files], problems: [...top.problems, ...own.problems] };
}

/** Runs `ls` with its parsed options. */
export async function runLs(runtime: CliRuntime, options: LsOptions): Promise<void> {
  const ctx = runtime.context(options);
  const scope: ListScope =
    options.all === true ? { all: true } : { all: false, cwd: cwdOption(ctx, options.cwd) };
  // Looked at first: a root that cannot be read is exit 2, not "no sessions"; what cannot be
  // read below it is said after the listing.
  const scan = scanOf(ctx, scope);
  const progress = progressOn(ctx.io.stderr, "reading sessions");
  // `ls --all` through the index first answers from the stored rows (a warm listing loads
  // nothing else); everything else, and that listing when the index failed, goes through
  // core's listings, loaded only then. `met`: how many files the index's listing met, when it
  // counted them (else the scan's count stands).
  const quick =
    scope.all && options.index !== false
      ? await quickRowsOfAll(ctx, options.index, progress)
      : undefined;
  const { rows, files: met } =
    quick ||
    (await (
      await import("../session/index-lister.js")
    ).listedRows(ctx, scope, quick === false ? false : options.index, progress));
  if (ctx.json) {
    ctx.printJson(rows);
  } else if (rows.length > 0) {
    // Each id as the shortest prefix `tree`/`context` take back: `--all` lists every session
    // the argument resolves against; one directory's listing measures against all of them
    // (their headers read, loaded only then).
    const shortId = scope.all
      ? shortIdsAmong(rows.map((row) => row.id))
      : (await import("../session/header-ids.js")).shortIdsUnder(ctx.sessionsRoot);
    printTable(ctx, rows, scope, shortId);
    ctx.out(ctx.colors.dim(summary(rows)));
  }
  // Folders and `*.jsonl` entries that could not be read: one line each, exit 2.
  reportUnreadable(ctx, scan.problems);
  if (scope.all) {
    // Files the listing dropped (no valid header first) would otherwise vanish silently (W16).
    // The index counted the files it met; without it (or when it gave up and the files were
    // read directly, counting nothing) the scan's count of regular `*.jsonl` files stands.
    const files = met !== undefined && met > 0 && met >= rows.length ? met : scan.files.length;
    const skipped = files - rows.length;
    if (skipped > 0) {
      ctx.err(
        `pi-sessions: ${skipped} .jsonl file${skipped === 1 ? " is" : "s are"} not readable as sessions; run \`pi-sessions check\` to see why`,
      );
    }
  }
  if (rows.length === 0) {
    const where = scope.all ? "" : ` for ${scope.cwd}`;
    const hint = scope.all
      ? "use --dir to read another directory"
      : "use --all for every directory, or --dir to read another one";
    ctx.err(`pi-sessions: no sessions${where} in ${ctx.sessionsRoot} (${hint})`);
    runtime.exit(ExitCode.problems);
  }
}

/** The options of `ls` besides the common ones, as data (`option-table.ts`). */
export const LS_OPTIONS: readonly OptionSpec[] = [
  { flags: "--all", description: "sessions of every working directory" },
  {
    flags: "--cwd <dir>",
    description: "sessions of this working directory instead of the current one",
  },
  {
    flags: "--index <file>",
    description: "session index file (default: $PI_SESSIONS_INDEX, else the cache dir)",
  },
  { flags: "--no-index", description: "read every session file instead of the index" },
];

/** Registers `ls` on the program. */
export function registerLs(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    addOptions(
      program
        .command("ls")
        .description("list sessions, newest first (default: those of the current directory)"),
      LS_OPTIONS,
    ),
  ).action((options: LsOptions) => runLs(runtime, options));
}
