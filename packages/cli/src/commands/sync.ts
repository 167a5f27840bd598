/**
 * `pi-sessions sync <dirA> <dirB>` and `pi-sessions sync <dir> --to <postgres://…>` — every
 * session of two sessions roots (or of a root and a PostgreSQL store) merged so both sides hold
 * every entry of both (SPEC §14 M1–M4): copies that diverged on two machines become branches
 * of one tree, colliding ids are re-minted, nothing is overwritten. `--dry-run` reads only.
 */

import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { Command } from "commander";
import { ExitCode, usageError } from "../io/errors.js";
import { isDirectory } from "../io/find-session-files.js";
import { progressOn } from "../io/progress.js";
import {
  type CliRuntime,
  type CommandContext,
  type CommonOptions,
  withCommonOptions,
} from "../io/runtime.js";
import { syncFolders } from "../sync/sync-folders.js";
import type { PairResult } from "../sync/sync-pair.js";
import { withoutPassword } from "../sync/url-password.js";

/** Options of `sync`. */
interface SyncOptions extends CommonOptions {
  to?: string;
  schema?: string;
  dryRun?: boolean;
  wait?: string;
}

/** How one side's file changes, in words. */
function sideText(change: PairResult["a"], count: number | undefined, side: string): string {
  if (change === undefined || change === "unchanged") return "";
  const what = change === "created" ? "copied" : change;
  return `${side} ${what}${count ? ` (+${count})` : ""}`;
}

/** One line per session that changed, was skipped or failed. */
function printResult(ctx: CommandContext, r: PairResult, sides: readonly [string, string]): void {
  const c = ctx.colors;
  // A synced or up-to-date session may still say something: an old file a pi kept writing.
  const note = r.message ? c.yellow(` (${r.message})`) : "";
  if (r.status === "up-to-date") {
    if (note) ctx.out(`${"up-to-date".padEnd(8)} ${r.session}:${note}`);
    return;
  }
  if (r.status === "skipped" || r.status === "failed") {
    ctx.out(`${c.red(r.status.padEnd(8))} ${r.session}: ${r.message}`);
    return;
  }
  const verb = r.status === "synced" ? c.green("synced  ") : c.yellow("would   ");
  const parts = [sideText(r.a, r.toA, sides[0]), sideText(r.b, r.toB, sides[1])].filter(Boolean);
  const renamed = r.renamed?.length ? `, ${r.renamed.length} colliding id(s) re-minted` : "";
  const leaf = r.leafId ? c.dim(` → continues at ${r.leafId}`) : "";
  ctx.out(`${verb} ${r.session}: ${parts.join(", ")}${renamed}${leaf}${note}`);
}

/** The closing summary line and the exit code of a list of results. */
function finish(ctx: CommandContext, runtime: CliRuntime, results: PairResult[], dryRun: boolean) {
  const count = (s: PairResult["status"]) => results.filter((r) => r.status === s).length;
  const changed = dryRun ? `${count("would-sync")} to sync` : `${count("synced")} synced`;
  const rest = `${count("up-to-date")} up to date, ${count("skipped")} skipped, ${count("failed")} failed`;
  ctx.out(`${results.length} session(s): ${changed}, ${rest}`);
  if (dryRun) ctx.out(ctx.colors.dim("dry run: nothing was written"));
  if (count("skipped") + count("failed") > 0) runtime.exit(ExitCode.problems);
}

/**
 * Whether `to` is a URL the PostgreSQL client reads as one (`postgres:`, `postgresql:`, or its
 * `socket:` form). Anything else it would read as a host name, and fail with a resolver error
 * that names neither the option nor what it wanted.
 */
function isPostgresUrl(to: string): boolean {
  if (!URL.canParse(to)) return false;
  return ["postgres:", "postgresql:", "socket:"].includes(new URL(to).protocol);
}

/**
 * Two names of one folder (or one folder inside the other) are not two copies: syncing them
 * would lock each session against itself and wait `--wait` seconds per session before
 * skipping it as "locked by another writer" — so say what is wrong at once instead.
 */
function refuseOverlap(first: string, rootA: string, second: string, rootB: string): void {
  const [realA, realB] = [realpathSync(rootA), realpathSync(rootB)];
  if (realA === realB) {
    throw usageError(`${first} and ${second} are the same folder; sync needs two sessions roots`);
  }
  const inside = (outer: string, inner: string) => {
    const rel = relative(outer, inner);
    return rel !== "" && rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel);
  };
  if (inside(realA, realB) || inside(realB, realA)) {
    const [outer, inner] = inside(realA, realB) ? [first, second] : [second, first];
    throw usageError(`${inner} lies inside ${outer}; sync needs two separate sessions roots`);
  }
}

/** Runs `sync`. */
async function runSync(
  runtime: CliRuntime,
  first: string,
  second: string | undefined,
  options: SyncOptions,
): Promise<void> {
  const ctx = runtime.context(options);
  if ((second === undefined) === (options.to === undefined)) {
    throw usageError("sync needs two sessions roots, or one root and --to <postgres URL>");
  }
  const wait = Number(options.wait ?? "5");
  if (!Number.isFinite(wait) || wait < 0)
    throw usageError(`--wait ${options.wait}: not a number of seconds`);
  if (options.to !== undefined && !isPostgresUrl(options.to)) {
    throw usageError(
      `--to ${withoutPassword(options.to)}: not a PostgreSQL URL (postgres://user@host:port/database)`,
    );
  }
  const rootA = resolve(ctx.io.cwd, first);
  if (!isDirectory(rootA)) throw usageError(`${first}: no such directory`);
  const dryRun = options.dryRun === true;
  const pair = { dryRun, lockWaitMs: wait * 1000 };
  const progress = progressOn(ctx.io.stderr, dryRun ? "reading sessions" : "syncing sessions");
  let results: PairResult[];
  let sides: [string, string];
  if (second !== undefined) {
    const rootB = resolve(ctx.io.cwd, second);
    if (!isDirectory(rootB)) throw usageError(`${second}: no such directory`);
    refuseOverlap(first, rootA, second, rootB);
    results = await syncFolders(rootA, rootB, pair, progress);
    sides = [first, second];
  } else {
    const { syncWithPostgres } = await import("../sync/sync-postgres.js");
    const schema = options.schema ?? "pi_sessions";
    results = await syncWithPostgres(rootA, options.to as string, schema, pair, progress);
    sides = [first, "server"];
  }
  if (ctx.json) ctx.printJson({ dryRun, sessions: results });
  else {
    for (const r of results) printResult(ctx, r, sides);
    finish(ctx, runtime, results, dryRun);
    return;
  }
  if (results.some((r) => r.status === "skipped" || r.status === "failed")) {
    runtime.exit(ExitCode.problems);
  }
}

/** Registers `sync` on the program. */
export function registerSync(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program
      .command("sync")
      .description(
        "merge the sessions of two roots (or a root and PostgreSQL): both keep every entry",
      )
      .argument("<dirA>", "a sessions root (e.g. ~/.pi/agent/sessions)")
      .argument("[dirB]", "another sessions root (a synced or mounted folder)")
      .option("--to <url>", "sync with a PostgreSQL store instead (postgres://…)")
      .option("--schema <name>", "the store's schema with --to (default pi_sessions)")
      .option(
        "--wait <seconds>",
        "how long to wait for a session another writer holds, or for a pi still writing a file sync replaced (default 5)",
      )
      .option("--dry-run", "show what would change; write nothing"),
  ).action((first: string, second: string | undefined, options: SyncOptions) =>
    runSync(runtime, first, second, options),
  );
}
