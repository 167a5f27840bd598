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
import { resolve } from "node:path";
import { formatReport, redactSession } from "@pi-sessions/redact";
import type { Command } from "commander";
import { ExitCode } from "../io/errors.js";
import { type CliRuntime, type CommonOptions, withCommonOptions } from "../io/runtime.js";
import { outputTargetOf, programDescriptors, writeOutput } from "../output/output-target.js";
import { bytesOfKeptText } from "../redact/raw-bytes-text.js";
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
    // Decided before redacting: what is at the path says how (or whether) to write it.
    const target =
      output === undefined || options.check === true
        ? undefined
        : outputTargetOf(output, path, options.force === true);
    const result = await redactSession(readSessionText(path), redactOptions);
    const { report } = result;
    // The file's own path gets its placeholders too (with --paths it names the home directory).
    const shownPath = result.redactText(path);
    if (options.check === true) {
      if (ctx.json) ctx.printJson({ session: shownPath, report });
      else ctx.io.stderr.write(formatReport(report, shownPath));
      runtime.exit(report.secrets > 0 ? ExitCode.problems : ExitCode.ok);
      return;
    }
    if (target !== undefined) {
      writeOutput(
        target,
        bytesOfKeptText(result.text),
        programDescriptors(ctx.writeData, ctx.io.stderr),
      );
    }
    if (ctx.json) {
      const written = output === undefined ? { content: result.text } : { output };
      ctx.printJson({ session: shownPath, ...written, report });
      return;
    }
    // Data, not text: exact into a pipe or file (damaged lines byte for byte), made safe only
    // on a terminal (`writeData`); the line writer would re-spell what it must keep.
    if (output === undefined) ctx.writeData(bytesOfKeptText(result.text));
    ctx.io.stderr.write(formatReport(report, shownPath));
    if (output !== undefined) ctx.err(`wrote ${output}`);
  });
}
