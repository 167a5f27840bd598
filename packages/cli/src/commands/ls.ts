/**
 * `pi-sessions ls` — sessions newest first (work in progress: the skeleton lists with core's
 * listing and prints one line each).
 */

import { listAllSessions } from "@pi-sessions/core";
import type { Command } from "commander";
import { ExitCode } from "../errors.js";
import { formatDate, truncate } from "../output.js";
import { type CliRuntime, type CommonOptions, withCommonOptions } from "../runtime.js";

/** Options of `ls`. */
interface LsOptions extends CommonOptions {
  all?: boolean;
  cwd?: string;
}

/** Registers `ls` on the program. */
export function registerLs(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program
      .command("ls")
      .description("list sessions, newest first")
      .option("--all", "sessions of every working directory")
      .option("--cwd <dir>", "sessions of this working directory"),
  ).action(async (options: LsOptions) => {
    const ctx = runtime.context(options);
    const infos = await listAllSessions(ctx.sessionsRoot, { cache: null });
    if (ctx.json) ctx.printJson(infos);
    else
      for (const info of infos)
        ctx.out(`${formatDate(info.modified)}  ${truncate(info.name ?? info.firstMessage, 60)}`);
    if (infos.length === 0) runtime.exit(ExitCode.problems);
  });
}
