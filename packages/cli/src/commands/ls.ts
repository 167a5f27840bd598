/**
 * `pi-sessions ls [--all] [--cwd DIR] [--no-index | --index FILE]` — sessions newest first,
 * with name (or first message), cwd, entries, branch tips, size and modification time. Read
 * through the session index by default (the same rows, reading only what changed since the
 * last run); `--no-index` reads every file.
 */

import { join, resolve } from "node:path";
import { encodeCwd, type SessionFileScan, scanSessionDir } from "@pi-sessions/core/internal";
import type { Command } from "commander";
import { ExitCode, usageError } from "../io/errors.js";
import { reportUnreadable, sessionFilesOf } from "../io/find-session-files.js";
import type { IndexOption } from "../io/index-file.js";
import { addOptions, type OptionSpec } from "../io/option-table.js";
import { progressOn } from "../io/progress.js";
import {
  type CliRuntime,
  type CommandContext,
  type CommonOptions,
  withCommonOptions,
} from "../io/runtime.js";
import type { ListScope } from "../session/ls-rows.js";
import { quickRowsOfAll } from "../session/quick-rows.js";
import { shortIdsOf } from "../session/short-ids.js";
import { type Listed, listedOfRows } from "../session/table-rows.js";
import { printTable } from "./ls-table.js";

/** Options of `ls`. */
export interface LsOptions extends CommonOptions {
  all?: boolean;
  cwd?: string;
  /** `--index FILE` (a string), `--no-index` (false), or neither (undefined: the default). */
  index?: IndexOption;
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

/** The root's own scan; throws exit 2 when the root cannot be listed. */
function rootScan(ctx: CommandContext): SessionFileScan {
  const top = scanSessionDir(ctx.sessionsRoot);
  if (top.rootProblem !== undefined) {
    throw usageError(`cannot read ${ctx.sessionsRoot}: ${top.rootProblem.reason}`);
  }
  return top;
}

/**
 * What `ls` lists from, as core's walk sees it: the whole root for `--all` (unsorted: only
 * counted), else the files in the root and in the cwd's own directory. Throws exit 2 when the
 * root cannot be read.
 */
function scanOf(ctx: CommandContext, scope: ListScope): SessionFileScan {
  if (scope.all) return sessionFilesOf(ctx.sessionsRoot, false);
  const top = rootScan(ctx);
  const own = scanSessionDir(join(ctx.sessionsRoot, encodeCwd(scope.cwd)));
  return { files: [...top.files, ...own.files], problems: [...top.problems, ...own.problems] };
}

/** Runs `ls` with its parsed options. */
export async function runLs(runtime: CliRuntime, options: LsOptions): Promise<void> {
  const ctx = runtime.context(options);
  const scope: ListScope =
    options.all === true ? { all: true } : { all: false, cwd: cwdOption(ctx, options.cwd) };
  // Looked at first: a root that cannot be read is exit 2, not "no sessions"; what cannot be
  // read below it is said after the listing. `ls --all` through the index looks only at the
  // root here: the index's walk tells whether the folders held anything to say (`clean`), and
  // only then are they scanned again (a second walk was a twentieth of a warm listing).
  const quickAll = scope.all && options.index !== false;
  let scan = quickAll ? undefined : scanOf(ctx, scope);
  if (quickAll) rootScan(ctx);
  const fullScan = () => {
    scan ??= scanOf(ctx, scope);
    return scan;
  };
  const progress = progressOn(ctx.io.stderr, "reading sessions");
  // `ls --all` through the index first answers from the stored rows (a warm listing loads
  // nothing else); everything else, and that listing when the index failed, goes through
  // core's listings, loaded only then. `met`: how many files the index's listing met, when it
  // counted them (else the scan's count stands).
  const quick =
    scope.all && options.index !== false
      ? await quickRowsOfAll(ctx, options.index, progress)
      : undefined;
  const listed: Listed =
    quick ||
    listedOfRows(
      await (await import("../session/ls-fallback.js")).listedRows(
        ctx,
        scope,
        quick === false ? false : options.index,
        progress,
      ),
    );
  const count = listed.count;
  if (ctx.json) {
    ctx.printJson(await listed.rows());
  } else if (count > 0) {
    const rows = await listed.table();
    // Each id as the shortest prefix `tree`/`context` take back: `--all` lists every session
    // the argument resolves against; one directory's listing measures against all of them
    // (their headers read, loaded only then).
    const ids = rows.map((row) => row.id);
    const shown = scope.all
      ? shortIdsOf(ids)
      : ids.map((await import("../session/ls-fallback.js")).shortIdsUnder(ctx.sessionsRoot));
    printTable(ctx, rows, shown, scope.all);
  }
  // Folders and `*.jsonl` entries that could not be read: one line each, exit 2.
  reportUnreadable(ctx, listed.clean ? [] : fullScan().problems);
  if (scope.all) {
    // Files the listing dropped (no valid header first) would otherwise vanish silently (W16).
    // The index counted the files it met; without it (or when it gave up and the files were
    // read directly, counting nothing) the scan's count of regular `*.jsonl` files stands.
    const met = listed.files;
    const files = met !== undefined && met > 0 && met >= count ? met : fullScan().files.length;
    const skipped = files - count;
    if (skipped > 0) {
      ctx.err(
        `pi-sessions: ${skipped} .jsonl file${skipped === 1 ? " is" : "s are"} not readable as sessions; run \`pi-sessions check\` to see why`,
      );
    }
  }
  if (count === 0) {
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
