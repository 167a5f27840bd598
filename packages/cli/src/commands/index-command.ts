/**
 * `pi-sessions index [--rebuild | --verify] [--json]` — brings the session index up to date
 * with the sessions directory (a progress bar on a terminal), drops and rebuilds it, or checks
 * it against the files. The sessions are only read; the index lives elsewhere (`--index FILE`,
 * `$PI_SESSIONS_INDEX`, else `$XDG_CACHE_HOME/pi-sessions/` or `~/.cache/pi-sessions/`).
 */

import { readdirSync } from "node:fs";
import type { SessionIndex, SyncCounts } from "@pi-sessions/index";
import type { Command } from "commander";
import { ExitCode, usageError } from "../io/errors.js";
import { reportUnreadable, sessionFilesOf } from "../io/find-session-files.js";
import { openIndexFor } from "../io/index-access.js";
import type { IndexOption } from "../io/index-file.js";
import { progressOn } from "../io/progress.js";
import {
  type CliRuntime,
  type CommandContext,
  type CommonOptions,
  withCommonOptions,
} from "../io/runtime.js";

/** Options of `index`. */
interface IndexOptions extends CommonOptions {
  rebuild?: boolean;
  verify?: boolean;
  index?: IndexOption;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** `12 new, 1 caught up, 30 unchanged, 2 dropped`. */
function countsLine(counts: SyncCounts): string {
  return `${counts.indexed} indexed, ${counts["caught-up"]} caught up, ${counts.unchanged} unchanged, ${counts.gone} dropped`;
}

async function runIndex(runtime: CliRuntime, options: IndexOptions): Promise<void> {
  const ctx = runtime.context(options);
  if (options.rebuild && options.verify) throw usageError("give either --rebuild or --verify");
  if (options.index === false) throw usageError("`index` needs an index file (drop --no-index)");
  // What the index cannot look at is said, never taken for "no sessions" (a root: exit 2 first).
  const { problems } = sessionFilesOf(ctx.sessionsRoot);
  const index = openIndexFor(ctx, options.index);
  if (index === undefined) {
    runtime.exit(ExitCode.usage);
    return;
  }
  let named: ReadonlySet<string> = new Set();
  try {
    if (options.verify) verify(ctx, runtime, index, problems.length);
    else named = await sync(ctx, runtime, index, options.rebuild === true);
  } finally {
    index.close();
  }
  // A sync says the folders it could not read and holds rows of itself (keeping them); the
  // scan adds the rest: the `*.jsonl` entries it will not open (FIFOs, devices, …) and the
  // folders the index never held (else a first `index` of a locked folder would be silent).
  reportUnreadable(
    ctx,
    problems.filter((p) => p.what === "file" || !named.has(p.path)),
  );
}

/** Syncs (or rebuilds) the index; resolves the folders it said it could not read. */
async function sync(
  ctx: CommandContext,
  runtime: CliRuntime,
  index: SessionIndex,
  rebuild: boolean,
): Promise<ReadonlySet<string>> {
  const progress = progressOn(ctx.io.stderr, rebuild ? "rebuilding index" : "indexing sessions");
  const onProgress = (done: number, total: number) => progress.update(done, total);
  const result = rebuild
    ? await index.rebuild(ctx.sessionsRoot, onProgress)
    : await index.sync(ctx.sessionsRoot, onProgress);
  progress.done();
  // What could not be read is not taken for deleted: its rows are kept, and the run says so.
  const unreadable = [...(rootUnreadable(ctx.sessionsRoot) ? [ctx.sessionsRoot] : [])];
  for (const dir of result.unreadable) if (!unreadable.includes(dir)) unreadable.push(dir);
  if (ctx.json) {
    ctx.printJson({ file: index.file, root: ctx.sessionsRoot, rebuilt: rebuild, ...result });
  } else {
    ctx.out(
      `${rebuild ? "rebuilt" : "indexed"} ${plural(result.sessions, "session")} of ${ctx.sessionsRoot} in ${index.file}: ${countsLine(result.counts)}`,
    );
  }
  for (const dir of unreadable) {
    ctx.err(`pi-sessions: cannot read ${dir}; what the index holds of it is kept as it was`);
  }
  if (unreadable.length > 0) runtime.exit(ExitCode.usage);
  return new Set(unreadable);
}

/** Whether the sessions root exists but cannot be read (a missing one just has no sessions). */
function rootUnreadable(root: string): boolean {
  try {
    readdirSync(root);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

function verify(
  ctx: CommandContext,
  runtime: CliRuntime,
  index: SessionIndex,
  unreadable: number,
): void {
  const report = index.verify(ctx.sessionsRoot);
  if (ctx.json) ctx.printJson({ file: index.file, root: ctx.sessionsRoot, ...report });
  else {
    ctx.out(
      `index ${index.file}: ${plural(report.files, "file")}, ${report.fresh} up to date, ${report.stale} changed since, ${report.missing} not indexed, ${report.orphaned} of deleted files; ${report.ok ? (unreadable > 0 ? `no problems in what could be read, ${unreadable} could not be read` : "no problems") : plural(report.problems.length, "problem")}`,
    );
    for (const p of report.problems) ctx.out(`  ${p.path}: ${p.problem}`);
  }
  if (!report.ok) {
    ctx.err(
      "pi-sessions: the index disagrees with the files; `pi-sessions index --rebuild` fixes it",
    );
    runtime.exit(ExitCode.problems);
  }
}

/** Registers `index` on the program. */
export function registerIndex(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program
      .command("index")
      .description(
        "bring the session index up to date (or --rebuild it, or --verify it against the files)",
      )
      .option("--rebuild", "drop the index and index every session again")
      .option("--verify", "check the index against the files; exit 1 if they disagree")
      .option(
        "--index <file>",
        "session index file (default: $PI_SESSIONS_INDEX, else the cache dir)",
      )
      .option("--no-index", "(refused: this command works on the index)"),
  ).action((options: IndexOptions) => runIndex(runtime, options));
}
