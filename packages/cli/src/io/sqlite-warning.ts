/**
 * The session index uses Node's built-in SQLite (`node:sqlite`), which Node 22 calls
 * experimental in a warning on stderr, once per process, when it is first loaded. The CLI owns
 * its process, so it drops that one warning (and nothing else: every other warning still
 * reaches stderr). A program that embeds the index package keeps Node's warnings as they are:
 * the library itself silences nothing.
 */

/** Whether a warning is Node's "SQLite is an experimental feature" one. */
function isSqliteExperimental(warning: unknown, rest: readonly unknown[]): boolean {
  const first = rest[0];
  const type = typeof first === "string" ? first : (first as { type?: unknown } | undefined)?.type;
  const text = typeof warning === "string" ? warning : (warning as Error | undefined)?.message;
  return type === "ExperimentalWarning" && String(text).startsWith("SQLite is an experimental");
}

/** Drops Node's SQLite experimental warning for the rest of this process (the CLI's only). */
export function silenceSqliteExperimentalWarning(): void {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: unknown, ...rest: unknown[]) {
    if (isSqliteExperimental(warning, rest)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
}
