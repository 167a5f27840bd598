/**
 * @pi-sessions/cli — the `pi-sessions` command as a library: {@link runCli} runs it against any
 * {@link CliIo}, so other tools (and tests) can call it without spawning a process.
 *
 * @packageDocumentation
 */

export type { ExitCodeValue } from "./errors.js";
export { CliError, ExitCode, notFoundError, oneLine, usageError } from "./errors.js";
export type { CliIo, OutputStream } from "./io.js";
export { processIo } from "./io.js";
export type { Colors } from "./output.js";
export {
  colorEnabled,
  colorsFor,
  formatBytes,
  formatCount,
  formatDate,
  pad,
  truncate,
  writeJson,
  writeLine,
} from "./output.js";
export { createProgram, runCli, VERSION } from "./program.js";
export { resolveSessionArg } from "./resolve-session.js";
export type { CommandContext, CommonOptions } from "./runtime.js";
export { CliRuntime, sessionsRootOf, withCommonOptions } from "./runtime.js";
export { isDirectory, jsonlFilesIn, sessionFilesUnder } from "./session-files.js";
