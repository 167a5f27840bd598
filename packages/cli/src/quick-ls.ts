/**
 * `ls` without commander: a plain `ls` command line (only its options, in their plain forms:
 * `option-table.ts`' `parseQuick`) runs straight away, as `program.ts` and the bundled `ls`
 * entry (`ls-main.ts`) both do; any other form goes to commander, which says what it says.
 */

import { LS_OPTIONS, runLs } from "./commands/ls.js";
import { failureCode } from "./io/failure.js";
import type { CliIo } from "./io/io.js";
import { parseQuick } from "./io/option-table.js";
import { CliRuntime, COMMON_OPTIONS } from "./io/runtime.js";

/**
 * The run of `argv` (without node and the script path) when it is a plain `ls` command line:
 * resolves its exit code, every failure said on stderr as `runCli` says it; `undefined` when
 * commander must parse `argv`.
 */
export function quickLs(argv: readonly string[]): ((io: CliIo) => Promise<number>) | undefined {
  const parsed = parseQuick(argv, "ls", COMMON_OPTIONS, [...LS_OPTIONS, ...COMMON_OPTIONS]);
  if (parsed === undefined) return undefined;
  return async (io) => {
    const runtime = new CliRuntime(io);
    try {
      runtime.useGlobalOptions(() => parsed.program);
      await runLs(runtime, parsed.command);
      return runtime.exitCode;
    } catch (error) {
      return failureCode(runtime, error);
    }
  };
}
