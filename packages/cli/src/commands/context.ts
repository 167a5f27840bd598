import type { Command } from "commander";
import { usageError } from "../errors.js";
import { type CliRuntime, type CommonOptions, withCommonOptions } from "../runtime.js";

/** Registers `context` (work in progress). */
export function registerContext(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program.command("context").description("(work in progress)").argument("<target>"),
  ).action((_target: string, options: CommonOptions) => {
    runtime.context(options);
    throw usageError("context: not implemented yet");
  });
}
