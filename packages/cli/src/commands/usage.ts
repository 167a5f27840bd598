/**
 * `pi-sessions usage [<session>|--all] [--by model|day|session] [--leaf ID]` — token and cost
 * totals. One session: the whole tree and the current branch. `--all` (the default without a
 * session): every session under the sessions directory, with entries that forked files
 * copied from their parent counted once. Sums come from `@pi-sessions/plugins`.
 *
 * `--json` shapes (stable, for scripts):
 * - one session: exactly `computeUsageTotals(entries, leaf)`: `{ tree, branch, leafId,
 *   diagnostics }`;
 * - one session with `--by`: that object plus `{ session, by, groups: [{ key, tree, branch }] }`;
 * - `--all`: `{ root, sessions, skipped, unreadable, copiedRecords, total, diagnostics }`
 *   (`unreadable`: folders and `*.jsonl` entries that could not be read, `{ path, what,
 *   reason }`), plus with `--by`
 *   `{ by, groups: [{ key, totals }] }` (by session, each group also has `sessionId`,
 *   `parentSession`, `own` and `copiedRecords`; `totals` excludes copies, `own` includes them).
 * Every totals object is a plugins `UsageTotals` (`input`, `output`, `cacheRead`, `cacheWrite`,
 * `cacheWrite1h`, `reasoning`, `totalTokens`, `cost`, `records`, `byModel`). `diagnostics` are
 * the plugins' usage diagnostics (negative counts or costs, left out of the sums; with `--all`
 * each also has `path`); they are also printed to stderr, one `warning:` line each.
 */
import {
  computeSessionsUsageTotals,
  computeUsageTotals,
  type UsageTotals,
  type UsageTotalsResult,
} from "@pi-sessions/plugins";
import { type Command, Option } from "commander";
import { CliError, ExitCode, usageError } from "../io/errors.js";
import { reportUnreadable, sessionFilesOf } from "../io/find-session-files.js";
import { type IndexOption, indexFileOf } from "../io/index-file.js";
import { progressOn } from "../io/progress.js";
import {
  type CliRuntime,
  type CommandContext,
  type CommonOptions,
  withCommonOptions,
} from "../io/runtime.js";
import { resolveEntryId } from "../session/entry-ref.js";
import { loadSession, longLineNotes, NotASessionError } from "../session/load-session.js";
import { type QuerySource, withQuerySource } from "../session/query-source.js";
import { resolveSessionArg } from "../session/resolve-session.js";
import type { SessionFacts } from "../session/session-header.js";
import {
  type DirectorySession,
  directoryGroups,
  type SessionUsageGroup,
  sessionGroups,
  USAGE_GROUPINGS,
  type UsageGrouping,
  usageEntries,
} from "../usage/usage-groups.js";
import {
  formatCost,
  type UsageRow,
  usageNotes,
  usageTable,
  usageWarnings,
} from "../usage/usage-table.js";

/** Options of `usage`. */
interface UsageOptions extends CommonOptions {
  all?: boolean;
  by?: UsageGrouping;
  leaf?: string;
  /** `--index FILE`, `--no-index` (false), or neither (the default index): one session only. */
  index?: IndexOption;
}

/** Registers `usage` on the program. */
export function registerUsage(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program
      .command("usage")
      .description(
        "usage and cost totals: whole tree and current branch of a session, or every session (fork-aware)",
      )
      .argument("[session]", "a session file path, id, id prefix or name (default: --all)")
      .option("--all", "every session under the sessions directory; forked copies count once")
      .addOption(
        new Option("--by <grouping>", "split the totals by model, day or session").choices(
          USAGE_GROUPINGS,
        ),
      )
      .option(
        "--leaf <id>",
        "branch totals at this entry (id or unique prefix), not the current leaf",
      )
      .option(
        "--index <file>",
        "session index file for one session (default: $PI_SESSIONS_INDEX, else the cache dir)",
      )
      .option("--no-index", "read the whole session file instead of through the index"),
  ).action((session: string | undefined, options: UsageOptions) => {
    const ctx = runtime.context(options);
    if (session !== undefined && options.all) {
      throw usageError("give either a session or --all, not both");
    }
    if (session === undefined) {
      if (options.leaf !== undefined) throw usageError("--leaf needs a session");
      // Every session is read from its file; a named index is still checked, not ignored.
      if (typeof options.index === "string") indexFileOf(ctx, options.index);
      runtime.exit(usageOfAll(ctx, options.by));
      return;
    }
    const path = resolveSessionArg(ctx, session);
    const computed = withQuerySource(ctx, path, options.index, (source) =>
      sessionUsage(ctx, source, options),
    );
    printSessionUsage(ctx, computed, options);
  });
}

function warnDamage(ctx: CommandContext, path: string, problems: number): void {
  if (problems === 0) return;
  ctx.err(
    `note: ${path}: ${problems} problem(s) while reading; intact entries counted (see pi-sessions check)`,
  );
}

/** One session's usage, every sum computed (nothing is printed yet). */
interface SessionUsage {
  readonly facts: SessionFacts;
  readonly leaf: string | null;
  readonly result: UsageTotalsResult;
  readonly groups: SessionUsageGroup[] | undefined;
}

function sessionUsage(
  ctx: CommandContext,
  source: QuerySource,
  options: UsageOptions,
): SessionUsage {
  const { facts } = source;
  // Said before a bad --leaf fails; a file read through the index has no problems to say.
  warnDamage(ctx, facts.path, source.diagnostics);
  for (const note of source.notes) ctx.err(note);
  // Resolved here (an id or a unique prefix, as `tree` and `context` take it) rather than by
  // catching the plugins' error, so the message names the file and the exit code matches.
  const leaf =
    options.leaf !== undefined
      ? resolveEntryId(source.ids, options.leaf, facts.path)
      : source.leafId;
  const usage = source.usage(leaf);
  const result = computeUsageTotals(usage.source, leaf);
  const groups =
    options.by && sessionGroups(facts.path, usage.entries(), usage.branch(), options.by);
  return { facts, leaf, result, groups: groups || undefined };
}

function printSessionUsage(ctx: CommandContext, usage: SessionUsage, options: UsageOptions): void {
  const { facts, leaf, result, groups } = usage;
  for (const line of usageWarnings(result.diagnostics, facts.path)) ctx.err(line);
  if (ctx.json) {
    ctx.printJson(groups ? { session: facts.path, ...result, by: options.by, groups } : result);
    return;
  }
  const c = ctx.colors;
  ctx.out(`${c.bold(facts.name ?? facts.header?.id ?? "(no id)")}  ${c.dim(facts.path)}`);
  const at = leaf === null ? "no leaf" : `at ${leaf}${options.leaf ? "" : " (current leaf)"}`;
  const rows: UsageRow[] = [
    { label: "whole tree", totals: result.tree },
    { label: `branch ${at}`, totals: result.branch },
  ];
  for (const line of usageTable("session", rows)) ctx.out(line);
  for (const note of usageNotes(result.tree)) ctx.out(c.dim(note));
  if (groups) {
    const title = `by ${options.by}`;
    ctx.out();
    ctx.out(c.bold(`whole tree, ${title}`));
    for (const l of usageTable(
      title,
      groups.map((g) => ({ label: g.key, totals: g.tree })),
    )) {
      ctx.out(l);
    }
    ctx.out();
    ctx.out(c.bold(`branch, ${title}`));
    const onBranch = groups.filter((g) => g.branch.records > 0);
    for (const l of usageTable(
      title,
      onBranch.map((g) => ({ label: g.key, totals: g.branch })),
    )) {
      ctx.out(l);
    }
  } else if (Object.keys(result.tree.byModel).length > 0) {
    ctx.out();
    for (const line of usageTable("whole tree by model", modelRows(result.tree))) ctx.out(line);
  }
}

/** The per-model rows of some totals, costliest first. */
function modelRows(totals: UsageTotals): UsageRow[] {
  return Object.entries(totals.byModel)
    .map(([label, sums]) => ({ label, totals: { ...sums, byModel: {} } }))
    .sort((a, b) => b.totals.cost.total - a.totals.cost.total);
}

/**
 * `--all`: every session file under the root; returns the exit code. What cannot be read (a
 * folder, a FIFO or device, a file without permission) is said on stderr and makes it 2: the
 * totals leave it out.
 */
function usageOfAll(ctx: CommandContext, by: UsageGrouping | undefined): number {
  const { files, problems } = sessionFilesOf(ctx.sessionsRoot);
  reportUnreadable(ctx, problems);
  let unreadable = problems.length > 0;
  const sessions: DirectorySession[] = [];
  const skipped: string[] = [];
  const progress = progressOn(ctx.io.stderr, "reading sessions");
  for (const [i, path] of files.entries()) {
    progress.update(i, files.length);
    try {
      const s = loadSession(path, undefined, ctx.readOptions);
      warnDamage(ctx, s.path, s.diagnostics.length);
      for (const note of longLineNotes(s.path, s.diagnostics)) ctx.err(note);
      // Only entries with usage matter to the sums; dropping the rest keeps memory flat
      // over thousands of files.
      sessions.push({ path, header: s.header, entries: usageEntries(s.entries) });
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      skipped.push(path);
      ctx.err(`note: skipped ${error.message}`);
      // Not a session is a note; a file that could not be read at all is unreadable input.
      if (!(error instanceof NotASessionError)) unreadable = true;
    }
  }
  progress.done();
  const all = computeSessionsUsageTotals(sessions);
  for (const line of usageWarnings(all.diagnostics)) ctx.err(line);
  const copiedRecords = all.sessions.reduce((n, s) => n + s.copiedRecords, 0);
  const groups = by && directoryGroups(sessions, all, by);
  if (sessions.length === 0) {
    ctx.err(
      `pi-sessions: no sessions in ${ctx.sessionsRoot} (use --dir to read another directory, or set PI_CODING_AGENT_DIR)`,
    );
  }
  const root = ctx.sessionsRoot;
  if (ctx.json) {
    const base = {
      root,
      sessions: sessions.length,
      skipped,
      unreadable: problems.map(({ path, reason, what }) => ({ path, what, reason })),
      copiedRecords,
      total: all.total,
      diagnostics: all.diagnostics,
    };
    ctx.printJson(groups ? { ...base, by, groups } : base);
    return unreadable ? ExitCode.usage : sessions.length === 0 ? ExitCode.problems : ExitCode.ok;
  }
  if (sessions.length === 0) return unreadable ? ExitCode.usage : ExitCode.problems;
  const c = ctx.colors;
  ctx.out(
    `${c.bold(`${sessions.length} session${sessions.length === 1 ? "" : "s"}`)} in ${root}` +
      (copiedRecords > 0 ? c.dim(` (${copiedRecords} records copied by forks counted once)`) : ""),
  );
  const rows: UsageRow[] = (groups ?? []).map((g) => ({ label: g.key, totals: g.totals }));
  if (!groups) {
    rows.push(...modelRows(all.total));
  }
  rows.push({ label: "total", totals: all.total });
  for (const line of usageTable(by ? `by ${by}` : "by model", rows)) ctx.out(line);
  for (const note of usageNotes(all.total)) ctx.out(c.dim(note));
  ctx.out(c.dim(`total cost ${formatCost(all.total.cost.total)}`));
  return unreadable ? ExitCode.usage : ExitCode.ok;
}
