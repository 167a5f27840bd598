import type { Command } from "commander";
import { usageError } from "../errors.js";
import { type CliRuntime, type CommonOptions, withCommonOptions } from "../runtime.js";

/** Registers `migrate` (work in progress). */
export function registerMigrate(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program.command("migrate").description("(work in progress)").argument("<target>"),
  ).action((_target: string, options: CommonOptions) => {
    runtime.context(options);
    throw usageError("migrate: not implemented yet");
  });
}
