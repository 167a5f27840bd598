import type { Command } from "commander";
import { usageError } from "../errors.js";
import { type CliRuntime, type CommonOptions, withCommonOptions } from "../runtime.js";

/** Registers `tree` (work in progress). */
export function registerTree(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program.command("tree").description("(work in progress)").argument("<target>"),
  ).action((_target: string, options: CommonOptions) => {
    runtime.context(options);
    throw usageError("tree: not implemented yet");
  });
}
