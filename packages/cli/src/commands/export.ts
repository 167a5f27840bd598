/**
 * `pi-sessions export <session> [--leaf ID] [--tree] --format md|html|jsonl [-o FILE]` — a
 * readable transcript of one branch (default: the current leaf's) or of the whole tree.
 * `--plugin M` (repeatable) renders the entry types of plugin module M by its renderers (md,
 * html; a jsonl export copies entries as they are).
 *
 * - `md`: Markdown from the plugins' headless renderers;
 * - `html`: one self-contained page (inline CSS, no scripts, everything escaped) with branches
 *   and compactions marked;
 * - `jsonl`: a new valid pi session file (fresh id, `parentSession` = the source), the way pi
 *   forks (`--tree`) or branches off (one branch) a session.
 *
 * `--redact` exports the session as `pi-sessions redact` leaves it (`@pi-sessions/redact`): every
 * secret a placeholder, in every format; `--redact-paths`, `--redact-config` as `redact`'s
 * `--paths`, `--config`. The report goes to stderr.
 *
 * Output goes to stdout, or to `-o FILE`: a new file atomically, an existing one only with
 * `--force` and never a session, a FIFO or device by writing into it (see `output/output-target.ts`).
 * With `--json`, stdout gets `{ format, scope, session, leafId, entries, output?, content? }`:
 * `content` is the export when there is no `-o`, `output` the file written otherwise.
 */
import { resolve } from "node:path";
import { systemEnv } from "@pi-sessions/core";
import { serializeRecords } from "@pi-sessions/core/internal";
import type { Renderers } from "@pi-sessions/plugins";
import { formatReport } from "@pi-sessions/redact";
import { type Command, Option } from "commander";
import { renderHtmlPage } from "../export/html-page.js";
import { jsonlExportRecords } from "../export/jsonl.js";
import { renderMarkdownTranscript } from "../export/markdown.js";
import { type SessionView, viewOf } from "../export/session-view.js";
import { type CliRuntime, type CommonOptions, withCommonOptions } from "../io/runtime.js";
import { jsonForTerminal } from "../io/terminal-text.js";
import { outputTargetOf, programDescriptors, writeOutput } from "../output/output-target.js";
import {
  type PluginOptions,
  pluginRenderersOf,
  withPluginOption,
} from "../plugins/plugin-option.js";
import { loadRedacted, redactOptionsOf } from "../redact/redact-input.js";
import { resolveEntryRef } from "../session/entry-ref.js";
import { loadSession, longLineNotes } from "../session/load-session.js";
import { resolveSessionArg } from "../session/resolve-session.js";

/** Export formats. */
type ExportFormat = "md" | "html" | "jsonl";

/** Options of `export`. */
interface ExportOptions extends CommonOptions, PluginOptions {
  format: ExportFormat;
  leaf?: string;
  tree?: boolean;
  output?: string;
  force?: boolean;
  redact?: boolean;
  redactPaths?: boolean;
  redactConfig?: string;
}

/** The export's text and how many entries it holds. */
interface Rendered {
  readonly content: string;
  readonly entries: number;
}

function render(
  s: SessionView,
  format: ExportFormat,
  scope: "branch" | "tree",
  leafId: string | null,
  cwd: string,
  renderers: Renderers | undefined,
): Rendered {
  const path = s.branch(leafId);
  if (format === "jsonl") {
    const records = jsonlExportRecords({
      header: s.header,
      entries: s.entries,
      scope,
      leafId,
      source: s.path,
      fallbackCwd: cwd,
      env: systemEnv,
    });
    return { content: serializeRecords(records), entries: records.length - 1 };
  }
  const entries = scope === "tree" ? s.entries.length : path.length;
  if (format === "html") {
    const content = renderHtmlPage({
      header: s.header,
      entries: s.entries,
      path,
      scope,
      sessionName: s.name,
      leafIsCurrent: leafId === s.leafId,
      source: s.path,
      getLabel: s.label,
      ...(renderers === undefined ? {} : { renderers }),
    });
    return { content, entries };
  }
  return { content: renderMarkdownTranscript(s, scope, leafId, renderers), entries };
}

/** Registers `export` on the program. */
export function registerExport(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    withPluginOption(
      program
        .command("export")
        .description(
          "a readable transcript of one branch (default: the current one) or the whole tree",
        )
        .argument("<session>", "a session file path, id, id prefix or name")
        .addOption(
          new Option("--format <format>", "md, html or jsonl")
            .choices(["md", "html", "jsonl"])
            .default("md"),
        )
        .option("--leaf <id>", "export the branch ending at this entry (id or unique prefix)")
        .option("--tree", "export every branch of the session, not just one")
        .option(
          "-o, --output <file>",
          "write to this file (or FIFO, device, /dev/stdout) instead of stdout",
        )
        .option("--force", "with -o, replace an existing file (never a session file)")
        .option("--redact", "replace secrets with placeholders first (as `redact` does)")
        .option("--redact-paths", "with --redact, also the working and home directories")
        .option("--redact-config <file>", "with --redact, a redaction config file"),
    ),
  ).action(async (session: string, options: ExportOptions) => {
    const ctx = runtime.context(options);
    // The plugins first: a module that cannot be loaded is a bad argument, said before any read.
    const renderers = await pluginRenderersOf(ctx.io, options);
    const path = resolveSessionArg(ctx, session);
    const redacting =
      options.redact === true || options.redactPaths === true || options.redactConfig !== undefined;
    const redacted = redacting
      ? await loadRedacted(
          path,
          redactOptionsOf({ paths: options.redactPaths, config: options.redactConfig }),
        )
      : undefined;
    const s = viewOf(redacted?.loaded ?? loadSession(path, undefined, ctx.readOptions));
    // With --redact the file's own path gets the file's placeholders wherever it is shown.
    const shownPath = redacted === undefined ? s.path : redacted.redaction.redactText(s.path);
    // An id or a unique prefix, resolved as `tree` and `context` do (same messages, same codes).
    const leafId = options.leaf !== undefined ? resolveEntryRef(s, options.leaf).id : s.leafId;
    for (const note of longLineNotes(s.path, s.diagnostics)) ctx.err(note);
    if (s.diagnostics.length > 0) {
      ctx.err(
        `note: ${shownPath}: ${s.diagnostics.length} problem(s) while reading; intact entries exported (see pi-sessions check)`,
      );
    }
    const scope = options.tree ? "tree" : "branch";
    const rendered = render(s, options.format, scope, leafId, ctx.io.cwd, renderers);
    // What the renderers add beside the session (its file path, `parentSession`) gets this
    // file's placeholders too.
    const content =
      redacted === undefined ? rendered.content : redacted.redaction.redactText(rendered.content);
    const { entries } = rendered;
    if (redacted !== undefined && !ctx.json)
      ctx.io.stderr.write(formatReport(redacted.redaction.report, shownPath));
    const output = options.output === undefined ? undefined : resolve(ctx.io.cwd, options.output);
    // Decided before writing: what is at the path says how (or whether) to write it.
    const target =
      output === undefined ? undefined : outputTargetOf(output, s.path, options.force === true);
    if (target !== undefined) {
      writeOutput(target, content, programDescriptors(ctx.writeData, ctx.io.stderr));
    }
    const report = {
      format: options.format,
      scope,
      session: shownPath,
      leafId,
      entries,
      ...(redacted === undefined ? {} : { redaction: redacted.redaction.report }),
    };
    if (ctx.json) {
      ctx.printJson(output === undefined ? { ...report, content } : { ...report, output });
    } else if (target === undefined) {
      // JSON Lines are data: escaped where a terminal would act, the same records all the same.
      ctx.writeData(options.format === "jsonl" ? jsonForTerminal(content) : content);
    } else {
      const what = scope === "tree" ? "whole tree" : `branch to ${leafId ?? "(none)"}`;
      const line = `wrote ${entries} entries (${what}) as ${options.format} to ${target.path}`;
      // Written into a pipe, device or descriptor (`-o /dev/stdout`): the note must not join it.
      if (target.kind === "stream" || target.kind === "descriptor") ctx.err(line);
      else ctx.out(line);
    }
  });
}
