/**
 * `pi-sessions redact <session> [-o FILE] [--check]` — the session with every secret replaced
 * by a placeholder naming its rule (`[REDACTED:github-token#1]`), still a session pi opens and
 * resumes with the same tree (`@pi-sessions/redact`, SPEC X1–X3).
 *
 * The redacted JSONL goes to stdout, or to `-o FILE`; the report (per rule: secrets, places,
 * entries; never a secret) goes to stderr, or with `--json` to stdout as
 * `{ session, output?, content?, report }`. `--check` writes nothing and exits 1 when anything
 * would be redacted (for CI and pre-share hooks), 0 when nothing would.
 */
import { lstatSync } from "node:fs";
import { resolve } from "node:path";
import { readHeader, writeFileAtomic } from "@pi-sessions/core/internal";
import { formatReport, redactSession } from "@pi-sessions/redact";
import type { Command } from "commander";
import { ExitCode, oneLine, usageError } from "../io/errors.js";
import { type CliRuntime, type CommonOptions, withCommonOptions } from "../io/runtime.js";
import {
  collect,
  type RedactFlags,
  readSessionText,
  redactOptionsOf,
} from "../redact/redact-input.js";
import { loadSession } from "../session/load-session.js";
import { resolveSessionArg } from "../session/resolve-session.js";

/** Options of `redact`. */
interface RedactCommandOptions extends CommonOptions, RedactFlags {
  output?: string;
  check?: boolean;
  force?: boolean;
}

/**
 * Refuses an `-o` target that must not be replaced: the session itself, another session file,
 * anything but a regular file (a device, a directory), or an existing file without `--force`.
 */
function checkTarget(output: string, source: string, force: boolean): void {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(output);
  } catch {
    return; // nothing there: a new file
  }
  if (!stats.isFile()) throw usageError(`refusing to write ${output}: it is not a regular file`);
  if (output === source) throw usageError(`refusing to overwrite the session itself: ${output}`);
  if (readHeader(output) !== null) {
    throw usageError(`refusing to overwrite ${output}: it is a pi session file (give a new path)`);
  }
  if (!force)
    throw usageError(
      `refusing to overwrite the existing file ${output} (add --force to replace it)`,
    );
}

/** Registers `redact` on the program. */
export function registerRedact(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program
      .command("redact")
      .description("replace secrets with placeholders; the result is still the same session")
      .argument("<session>", "a session file path, id, id prefix or name")
      .option("-o, --output <file>", "write the redacted session here instead of stdout")
      .option("--force", "with -o, replace an existing file (never a session file)")
      .option("--check", "write nothing; exit 1 if anything would be redacted")
      .option("--paths", "also redact the working directory and home directories")
      .option("--entropy", "also redact high-entropy strings no rule knows")
      .option("--pattern <regex[=name]>", "a rule of your own (repeatable)", collect)
      .option("--allow <string>", "never redact this string (repeatable)", collect)
      .option("--config <file>", "a JSON file of patterns, allow, entropy, paths"),
  ).action(async (session: string, options: RedactCommandOptions) => {
    const ctx = runtime.context(options);
    const redactOptions = redactOptionsOf(options);
    const path = resolveSessionArg(ctx, session);
    loadSession(path); // not a session, empty, unreadable: the loader's one-line reasons
    const output = options.output === undefined ? undefined : resolve(ctx.io.cwd, options.output);
    if (output !== undefined && options.check !== true)
      checkTarget(output, path, options.force === true);
    const result = await redactSession(readSessionText(path), redactOptions);
    const { report } = result;
    if (options.check === true) {
      if (ctx.json) ctx.printJson({ session: path, report });
      else ctx.io.stderr.write(formatReport(report, path));
      runtime.exit(report.secrets > 0 ? ExitCode.problems : ExitCode.ok);
      return;
    }
    if (output !== undefined) {
      try {
        writeFileAtomic(output, result.text);
      } catch (error) {
        throw usageError(`cannot write ${output}: ${oneLine(error)}`);
      }
    }
    if (ctx.json) {
      const written = output === undefined ? { content: result.text } : { output };
      ctx.printJson({ session: path, ...written, report });
      return;
    }
    if (output === undefined) ctx.io.stdout.write(result.text);
    ctx.io.stderr.write(formatReport(report, path));
    if (output !== undefined) ctx.err(`wrote ${output}`);
  });
}
