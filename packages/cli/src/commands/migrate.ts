/**
 * `pi-sessions migrate <file|dir> [--dry-run]` — upgrades v1/v2 session files to v3 (SPEC
 * §2.4) with an atomic rewrite and a backup of each original. Unparseable lines are kept
 * byte for byte in their places; existing ids and parents are kept. `--dry-run` reads only.
 */

import { NotRegularFileError, systemEnv } from "@pi-sessions/core";
import { fsReason, readRegularFile } from "@pi-sessions/core/internal";
import type { Command } from "commander";
import { CliError, ExitCode } from "../io/errors.js";
import {
  type CliRuntime,
  type CommandContext,
  type CommonOptions,
  withCommonOptions,
} from "../io/runtime.js";
import { reportUnreadable } from "../io/session-files.js";
import { commitRepair } from "../repair/commit.js";
import { NotRepairableError, planRepair, type RepairAction } from "../repair/plan.js";
import { resolveTargets } from "../session/targets.js";

/** Options of `migrate`. */
interface MigrateOptions extends CommonOptions {
  dryRun?: boolean;
  force?: boolean;
}

/** What happened to one file. */
interface MigrateResult {
  readonly path: string;
  readonly status:
    | "migrated"
    | "would-migrate"
    | "current"
    | "not-a-session"
    | "unreadable"
    | "refused";
  /** The header's version before (absent = 1). */
  readonly fromVersion?: number;
  readonly backup?: string;
  readonly actions?: readonly RepairAction[];
  readonly message?: string;
}

/**
 * Migrates (or, dry, plans) one file. Never throws for a bad file: it becomes a status. Only a
 * regular file is read (a FIFO or device is `unreadable`, never opened); a rewrite that is
 * refused (read-only without `force`, in use, changed meanwhile) is `refused`.
 */
function migrateFile(path: string, dryRun: boolean, force: boolean): MigrateResult {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path);
  } catch (error) {
    const reason = error instanceof NotRegularFileError ? error.reason : fsReason(error);
    return { path, status: "unreadable", message: reason };
  }
  let plan: ReturnType<typeof planRepair>;
  try {
    plan = planRepair(bytes, { migrate: true, structural: false, env: systemEnv });
  } catch (error) {
    if (error instanceof NotRepairableError) {
      return { path, status: "not-a-session", message: error.message };
    }
    throw error;
  }
  const migrated = plan.actions.some((a) => a.kind === "migrated");
  if (!migrated) return { path, status: "current", fromVersion: plan.fromVersion };
  if (dryRun) {
    return { path, status: "would-migrate", fromVersion: plan.fromVersion, actions: plan.actions };
  }
  let backup: string;
  try {
    backup = commitRepair(path, plan, { force });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { path, status: "refused", fromVersion: plan.fromVersion, message: error.message };
  }
  return { path, status: "migrated", fromVersion: plan.fromVersion, backup, actions: plan.actions };
}

function printResult(ctx: CommandContext, r: MigrateResult, quietCurrent: boolean): void {
  const c = ctx.colors;
  switch (r.status) {
    case "current":
      if (!quietCurrent) ctx.out(`${c.dim("current")}  ${r.path} (v${r.fromVersion})`);
      return;
    case "not-a-session":
    case "unreadable":
      ctx.out(`${c.red("skipped")}  ${r.path}: ${r.message}`);
      return;
    case "refused":
      ctx.out(`${c.red("not migrated")}  ${r.path} (v${r.fromVersion}): ${r.message}`);
      return;
    default: {
      const verb = r.status === "migrated" ? c.green("migrated") : c.yellow("would migrate");
      ctx.out(`${verb}  ${r.path} (v${r.fromVersion} → v3)`);
      for (const a of r.actions ?? []) {
        ctx.out(`    ${a.line !== undefined ? `line ${a.line}: ` : ""}${a.message}`);
      }
      if (r.backup !== undefined) ctx.out(c.dim(`    original saved as ${r.backup}`));
    }
  }
}

/** Runs `migrate`. */
function runMigrate(runtime: CliRuntime, target: string, options: MigrateOptions): void {
  const ctx = runtime.context(options);
  const { files, fromDirectory, problems } = resolveTargets(ctx, target);
  const dryRun = options.dryRun === true;
  const results = files.map((file) => migrateFile(file, dryRun, options.force === true));
  for (const p of problems) {
    if (p.what === "file") results.push({ path: p.path, status: "unreadable", message: p.reason });
  }
  const count = (status: MigrateResult["status"]): number =>
    results.filter((r) => r.status === status).length;
  const skipped = count("not-a-session") + count("unreadable") + count("refused");
  // Unreadable is not empty: every folder, file and refused rewrite is said on stderr (exit 2).
  reportUnreadable(
    ctx,
    problems.filter((p) => p.what === "folder"),
  );
  for (const r of results) {
    if (r.status === "unreadable" || r.status === "refused") {
      ctx.err(
        r.status === "refused"
          ? `pi-sessions: ${r.message}`
          : `pi-sessions: cannot read ${r.path}: ${r.message}`,
      );
      runtime.exit(ExitCode.usage);
    }
  }
  if (ctx.json) {
    ctx.printJson({ dryRun, files: results });
  } else {
    for (const r of results) printResult(ctx, r, fromDirectory);
    const done = dryRun ? `${count("would-migrate")} to migrate` : `${count("migrated")} migrated`;
    ctx.out(
      `${results.length} file(s): ${done}, ${count("current")} already current, ${skipped} skipped`,
    );
    if (dryRun) ctx.out(ctx.colors.dim("dry run: nothing was written"));
  }
  const only = results[0];
  if (!fromDirectory && only !== undefined && only.status === "not-a-session") {
    // One named file that cannot be migrated is bad input, as for the other commands.
    throw new CliError(`${only.path}: ${only.message}`, ExitCode.usage);
  }
  if (skipped > 0) runtime.exit(ExitCode.problems);
}

/** Registers `migrate` on the program. */
export function registerMigrate(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program
      .command("migrate")
      .description("upgrade v1/v2 session files to v3 (a backup of each original is kept)")
      .argument("<target>", "a session file (or id, prefix, name) or a directory of them")
      .option("--dry-run", "show what would change; write nothing")
      .option(
        "--force",
        "rewrite read-only files too (refused otherwise; mode, owner and group are kept)",
      ),
  ).action((target: string, options: MigrateOptions) => runMigrate(runtime, target, options));
}
