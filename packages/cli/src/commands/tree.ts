/**
 * `pi-sessions tree <session> [--depth N] [--leaf ID] [--no-index | --index FILE] [--plugin M]…` —
 * the entry tree with labels, the current leaf and its path, and compaction and branch-summary markers.
 * With `--depth` the tree comes from the session index, which reads only the lines of the
 * rows shown (and the labels) and counts the entries cut off from its rows; the whole tree
 * reads the file.
 */

import type { Renderers } from "@pi-sessions/plugins";
import type { Command } from "commander";
import { type IndexOption, indexFileOf } from "../io/index-file.js";
import { truncate } from "../io/output.js";
import { parsePositiveInt } from "../io/parse-args.js";
import {
  type CliRuntime,
  type CommandContext,
  type CommonOptions,
  withCommonOptions,
} from "../io/runtime.js";
import {
  type PluginOptions,
  pluginRenderersOf,
  withPluginOption,
} from "../plugins/plugin-option.js";
import { resolveEntryId } from "../session/entry-ref.js";
import { entrySummary } from "../session/entry-summary.js";
import { type QuerySource, withQuerySource } from "../session/query-source.js";
import { resolveSessionArg } from "../session/resolve-session.js";
import { printSessionHeader } from "../session/session-header.js";
import { type TreeRow, treeRows } from "../session/tree-view.js";

/** Options of `tree`. */
interface TreeOptions extends CommonOptions, PluginOptions {
  depth?: number;
  leaf?: string;
  /** `--index FILE`, `--no-index` (false), or neither (the default index). */
  index?: IndexOption;
}

/** Summary width when stdout has no width (a pipe). */
const DEFAULT_WIDTH = 100;

/** One row as text: prefix, short id, summary, then label and leaf markers. */
function rowLine(ctx: CommandContext, row: TreeRow, width: number): string {
  const c = ctx.colors;
  if (row.hidden !== undefined) {
    return `${row.prefix}${c.dim(`… ${row.hidden} more entr${row.hidden === 1 ? "y" : "ies"} (raise --depth)`)}`;
  }
  const id = row.onPath ? c.bold(row.id.slice(0, 8)) : c.dim(row.id.slice(0, 8));
  const room = Math.max(20, width - row.prefix.length - 10);
  let summary = truncate(row.summary, room);
  if (row.type === "compaction") summary = c.yellow(`⟲ ${summary}`);
  else if (row.type === "branch_summary") summary = c.magenta(`⎇ ${summary}`);
  else if (!row.onPath) summary = c.dim(summary);
  const label = row.label !== undefined ? ` ${c.green(`[${row.label}]`)}` : "";
  const leaf = row.leaf ? ` ${c.inverse("← leaf")}` : "";
  return `${row.prefix}${id} ${summary}${label}${leaf}`;
}

/**
 * An entry's one line: a plugin's summary of its own entry type first (`--plugin`), else the
 * built-in one (which reads an unknown type as its name).
 */
function summarizeWith(renderers: Renderers | undefined): (entry: unknown) => string {
  if (renderers === undefined) return entrySummary;
  return (entry) => renderers.summaryOf(entry) ?? entrySummary(entry);
}

/** Runs `tree`. */
async function runTree(
  runtime: CliRuntime,
  sessionArg: string,
  options: TreeOptions,
): Promise<void> {
  const ctx = runtime.context(options);
  // The plugins first: a module that cannot be loaded is a bad argument, said before any read.
  const renderers = await pluginRenderersOf(ctx.io, options);
  const path = resolveSessionArg(ctx, sessionArg);
  // Without --depth every row is shown, so every line is read for its summary: one pass over
  // the file is cheaper than the index's rows plus the same lines read by place.
  const index = options.depth === undefined ? false : options.index;
  // Unused without --depth, a named index is still checked, not silently ignored.
  if (index === false && typeof options.index === "string") indexFileOf(ctx, options.index);
  const { facts, problems, leafId, rows, notes } = withQuerySource(ctx, path, index, (source) =>
    treeOfSource(source, options, summarizeWith(renderers)),
  );
  for (const note of notes) ctx.err(note);
  if (ctx.json) {
    ctx.printJson({
      path: facts.path,
      id: facts.header.id,
      version: facts.version,
      leafId,
      entries: facts.entries,
      nodes: rows.map(({ prefix: _prefix, summary, ...row }) => ({
        ...row,
        summary: truncate(summary, 200),
      })),
    });
    return;
  }
  printSessionHeader(ctx, facts);
  ctx.out();
  const width = ctx.io.stdout.columns ?? DEFAULT_WIDTH;
  for (const row of rows) ctx.out(rowLine(ctx, row, width));
  if (rows.length === 0) ctx.out(ctx.colors.dim("(no entries)"));
  if (problems > 0) {
    ctx.err(
      `pi-sessions: ${problems} problem(s) in this file; run \`pi-sessions check\` for details`,
    );
  }
}

/** The rows of the tree, every summary computed (nothing is printed yet). */
function treeOfSource(
  source: QuerySource,
  options: TreeOptions,
  summarize: (entry: unknown) => string,
) {
  const { facts, problems } = source;
  const leafId =
    options.leaf !== undefined
      ? resolveEntryId(source.ids, options.leaf, facts.path)
      : source.leafId;
  const { roots, onPath, summaryOf, hiddenBelow } = source.tree(leafId, options.depth, summarize);
  return {
    facts,
    problems,
    notes: source.notes,
    leafId,
    rows: treeRows(roots, leafId, onPath, options.depth, summaryOf, hiddenBelow),
  };
}

/** Registers `tree` on the program. */
export function registerTree(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    withPluginOption(
      program
        .command("tree")
        .description("show a session's entry tree: labels, leaf, compactions, branch summaries")
        .argument("<session>", "a session file, id, id prefix or name")
        .option("--depth <n>", "show entries at most n levels below the roots", parsePositiveInt)
        .option("--leaf <id>", "mark this entry (id or unique prefix) as the leaf and its path")
        .option(
          "--index <file>",
          "session index file (default: $PI_SESSIONS_INDEX, else the cache dir)",
        )
        .option("--no-index", "read the whole session file instead of through the index (--depth)"),
    ),
  ).action((session: string, options: TreeOptions) => runTree(runtime, session, options));
}
