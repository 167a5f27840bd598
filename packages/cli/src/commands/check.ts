import type { Command } from "commander";
import { usageError } from "../errors.js";
import { type CliRuntime, type CommonOptions, withCommonOptions } from "../runtime.js";

/** Registers `check` (work in progress). */
export function registerCheck(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program.command("check").description("(work in progress)").argument("<target>"),
  ).action((_target: string, options: CommonOptions) => {
    runtime.context(options);
    throw usageError("check: not implemented yet");
  });
}
