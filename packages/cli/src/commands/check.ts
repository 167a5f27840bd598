/**
 * `pi-sessions check [<session|dir>] [--repair]` — fsck for session files: every damaged
 * line, entry without id, extra header, duplicate id, dangling parent, cycle, legacy version,
 * missing final newline and wrong-typed field, with line numbers. Exit 1 when anything is wrong. `--repair`
 * fixes what can be fixed with an atomic rewrite and a backup; damaged lines are kept verbatim.
 */

import type { PathProblem } from "@pi-sessions/core/internal";
import type { Command } from "commander";
import { ExitCode } from "../io/errors.js";
import { pad } from "../io/output.js";
import { progressOn } from "../io/progress.js";
import {
  type CliRuntime,
  type CommandContext,
  type CommonOptions,
  withCommonOptions,
} from "../io/runtime.js";
import { reportUnreadable } from "../io/session-files.js";
import { checkFile, type FileReport, type ReportedProblem } from "../repair/check-file.js";
import { resolveTargets } from "../session/targets.js";

/** Options of `check`. */
interface CheckOptions extends CommonOptions {
  repair?: boolean;
  force?: boolean;
}

/**
 * One problem line: `line 7   invalid-json   reason: "quote"`, fixable ones marked. A field
 * problem reads as a path and a value instead: `line 12: message.usage.input: expected number,
 * got "400"`.
 */
function problemLine(ctx: CommandContext, p: ReportedProblem, verb?: string): string {
  const c = ctx.colors;
  if (p.kind === "invalid-field") {
    return `    ${p.line !== undefined ? `line ${p.line}: ` : ""}${p.message}`;
  }
  const where = pad(p.line !== undefined ? `line ${p.line}` : "", 10);
  const quote = p.quote !== undefined ? `: ${p.quote}` : "";
  const tag = verb ?? (p.fixable ? c.green(" [fixable with --repair]") : "");
  return `    ${where} ${c.yellow(pad(p.kind, 16))} ${p.message}${quote}${verb === undefined ? tag : ""}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The text report of one file. `quietOk` skips clean files (directory checks). */
function printReport(ctx: CommandContext, report: FileReport, quietOk: boolean): void {
  const c = ctx.colors;
  if (report.problems.length === 0) {
    if (!quietOk) ctx.out(`${c.green("ok")}  ${report.path}`);
    return;
  }
  const fixable = report.problems.filter((p) => p.fixable).length;
  const head = `${plural(report.problems.length, "problem")}${fixable > 0 ? `, ${fixable} fixable` : ""}`;
  ctx.out(`${c.red("bad")} ${report.path}: ${head}`);
  for (const p of report.problems) ctx.out(problemLine(ctx, p));
  if (report.refused !== undefined) {
    ctx.out(`    ${c.yellow("not repaired")}: ${report.refused}`);
  }
  if (report.repair !== undefined) {
    ctx.out(`    ${c.green("repaired")}; original saved as ${report.repair.backup}`);
    for (const a of report.repair.actions) {
      const where = pad(a.line !== undefined ? `line ${a.line}` : "", 10);
      ctx.out(`    ${c.green("fixed")} ${where} ${a.kind}: ${a.message}`);
    }
    const left = report.remaining ?? [];
    if (left.length > 0) {
      ctx.out(`    ${plural(left.length, "problem")} left (kept as they are, nothing dropped):`);
      for (const p of left) ctx.out(problemLine(ctx, p, ""));
    } else {
      ctx.out(`    ${c.green("no problems left")}`);
    }
  }
}

/** A file report for a `*.jsonl` entry the scan would not open (FIFO, device, loop, …). */
function unreadableReport(problem: PathProblem): FileReport {
  const message = `cannot read ${problem.path}: ${problem.reason}`;
  return {
    path: problem.path,
    problems: [{ kind: "unreadable", message, fixable: false }],
    exitCode: ExitCode.usage,
  };
}

/** Runs `check`. */
function runCheck(runtime: CliRuntime, target: string | undefined, options: CheckOptions): void {
  const ctx = runtime.context(options);
  const { files, fromDirectory, problems } = resolveTargets(ctx, target);
  const progress = progressOn(ctx.io.stderr, "checking");
  const reports: FileReport[] = [];
  const fileOptions = {
    repair: options.repair === true,
    force: options.force === true,
    strict: !fromDirectory,
    maxLineBytes: ctx.readOptions.maxLineBytes,
  };
  for (const file of files) {
    reports.push(checkFile(file, fileOptions));
    progress.update(reports.length, files.length);
  }
  progress.done();
  const folders = problems.filter((p) => p.what === "folder");
  reports.push(...problems.filter((p) => p.what === "file").map(unreadableReport));
  for (const r of reports) runtime.exit(r.exitCode);
  // Unreadable is not empty: each folder, file or refused rewrite left out is said on stderr.
  reportUnreadable(ctx, folders);
  for (const r of reports) {
    const unreadable = r.problems.find((p) => p.kind === "unreadable");
    if (unreadable !== undefined) ctx.err(`pi-sessions: ${unreadable.message}`);
    if (r.refused !== undefined) ctx.err(`pi-sessions: ${r.refused}`);
  }
  const readable = reports.filter((r) => !r.problems.some((p) => p.kind === "unreadable"));
  const bad = reports.filter((r) => r.problems.length > 0);
  const problemCount = bad.reduce((n, r) => n + r.problems.length, 0);
  const fixable = bad.reduce((n, r) => n + r.problems.filter((p) => p.fixable).length, 0);
  const repaired = reports.filter((r) => r.repair !== undefined).length;
  const left = reports.reduce((n, r) => n + (r.remaining ?? r.problems).length, 0);
  const notRead = reports.length - readable.length + folders.length;
  if (ctx.json) {
    ctx.printJson({
      checked: reports.length,
      withProblems: bad.length,
      problems: problemCount,
      fixable,
      ...(options.repair === true ? { repaired, problemsLeft: left } : {}),
      unreadable: [
        ...folders.map(({ path, reason }) => ({ path, what: "folder", reason })),
        ...reports
          .filter((r) => r.problems.some((p) => p.kind === "unreadable"))
          .map(({ path, problems: [p] }) => ({ path, what: "file", reason: p?.message })),
      ],
      files: reports.map(({ exitCode: _code, ...r }) => ({ ...r, ok: r.problems.length === 0 })),
    });
    return;
  }
  for (const r of reports) printReport(ctx, r, fromDirectory);
  const c = ctx.colors;
  const notReadNote = notRead > 0 ? `; could not read ${notRead} (said on stderr)` : "";
  const summary = `checked ${plural(reports.length, "file")}: ${bad.length} with problems (${plural(problemCount, "problem")}, ${fixable} fixable)${notReadNote}`;
  ctx.out(bad.length === 0 && notRead === 0 ? c.green(summary) : summary);
  if (options.repair === true && repaired > 0) {
    ctx.out(`repaired ${plural(repaired, "file")}; ${plural(left, "problem")} left`);
  } else if (options.repair !== true && fixable > 0) {
    ctx.out(c.dim("run again with --repair to fix the fixable ones (a backup is kept)"));
  }
}

/** Registers `check` on the program. */
export function registerCheck(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program
      .command("check")
      .description("find damage in session files (exit 1 if any); --repair fixes what it can")
      .argument("[target]", "a session (file, id, prefix, name) or a directory; default: all")
      .option(
        "--repair",
        "fix what can be fixed: atomic rewrite, original kept as <file>.<time>.bak; damaged lines are kept verbatim",
      )
      .option(
        "--force",
        "with --repair, rewrite read-only files too (refused otherwise; mode, owner and group are kept)",
      ),
  ).action((target: string | undefined, options: CheckOptions) =>
    runCheck(runtime, target, options),
  );
}
