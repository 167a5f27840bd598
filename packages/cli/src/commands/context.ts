/**
 * `pi-sessions context <session> [--leaf ID]` — what would be sent to the model from a leaf:
 * the messages in order, each with the entry it came from and a token and size estimate.
 */

import { buildSessionProjection } from "@pi-sessions/core";
import type { Command } from "commander";
import type { IndexOption } from "../io/index-file.js";
import { formatBytes, formatCount, pad, truncate } from "../io/output.js";
import { type CliRuntime, type CommonOptions, withCommonOptions } from "../io/runtime.js";
import { resolveEntryId } from "../session/entry-ref.js";
import { messageSummary } from "../session/entry-summary.js";
import { estimateTokens, messageBytes } from "../session/estimate.js";
import { withQuerySource } from "../session/query-source.js";
import { resolveSessionArg } from "../session/resolve-session.js";
import { printSessionHeader } from "../session/session-header.js";

/** Options of `context`. */
interface ContextOptions extends CommonOptions {
  leaf?: string;
  /** `--index FILE`, `--no-index` (false), or neither (the default index). */
  index?: IndexOption;
}

/** One message of the context with where it came from and what it weighs. */
interface ContextRow {
  readonly index: number;
  /** The entry the message was built from (a compaction, a message, a custom message, …). */
  readonly entryId: string;
  readonly entryType: string;
  readonly role: string;
  readonly tokens: number;
  readonly bytes: number;
  readonly message: unknown;
}

const DEFAULT_WIDTH = 100;

function roleOf(message: unknown): string {
  const role = (message as { role?: unknown } | null)?.role;
  return typeof role === "string" ? role : "?";
}

/** Runs `context`. */
function runContext(runtime: CliRuntime, sessionArg: string, options: ContextOptions): void {
  const ctx = runtime.context(options);
  const path = resolveSessionArg(ctx, sessionArg);
  const { session, notes, leafId, projection } = withQuerySource(
    ctx,
    path,
    options.index,
    (source) => {
      const leaf =
        options.leaf !== undefined ? resolveEntryId(source.ids, options.leaf, path) : source.leafId;
      return {
        session: source.facts,
        notes: source.notes,
        leafId: leaf,
        projection: buildSessionProjection(source.contextEntries(leaf), leaf),
      };
    },
  );
  // A line left unread is an entry missing from the path: said before anything else.
  for (const note of notes) ctx.err(note);
  const rows: ContextRow[] = [];
  for (const projected of projection.entries) {
    for (const message of projected.messages) {
      rows.push({
        index: rows.length + 1,
        entryId: projected.sourceEntry.id,
        entryType: projected.sourceEntry.type,
        role: roleOf(message),
        tokens: estimateTokens(message),
        bytes: messageBytes(message),
        message,
      });
    }
  }
  const tokens = rows.reduce((sum, r) => sum + r.tokens, 0);
  const bytes = rows.reduce((sum, r) => sum + r.bytes, 0);
  if (ctx.json) {
    ctx.printJson({
      path: session.path,
      id: session.header.id,
      leafId,
      model: projection.model,
      thinkingLevel: projection.thinkingLevel,
      totals: { messages: rows.length, estimatedTokens: tokens, bytes },
      messages: rows.map(({ tokens: estimatedTokens, ...row }) => ({ ...row, estimatedTokens })),
    });
    return;
  }
  const c = ctx.colors;
  printSessionHeader(ctx, session);
  const model = projection.model
    ? `${projection.model.provider}/${projection.model.modelId}`
    : "(none)";
  ctx.out(
    c.dim(
      `  context from leaf ${leafId ?? "(none)"}: model ${model}, thinking ${projection.thinkingLevel}`,
    ),
  );
  ctx.out();
  const width = ctx.io.stdout.columns ?? DEFAULT_WIDTH;
  ctx.out(
    c.bold(
      `${pad("#", 4, true)}  ${pad("ENTRY", 8)}  ${pad("TOKENS", 8, true)}  ${pad("SIZE", 8, true)}  MESSAGE`,
    ),
  );
  for (const row of rows) {
    const text = truncate(messageSummary(row.message), Math.max(20, width - 38));
    const styled =
      row.entryType === "compaction"
        ? c.yellow(text)
        : row.entryType === "branch_summary"
          ? c.magenta(text)
          : text;
    ctx.out(
      `${pad(String(row.index), 4, true)}  ${c.dim(pad(row.entryId.slice(0, 8), 8))}  ${pad(`~${formatCount(row.tokens)}`, 8, true)}  ${pad(formatBytes(row.bytes), 8, true)}  ${styled}`,
    );
  }
  ctx.out();
  ctx.out(
    `${rows.length} message${rows.length === 1 ? "" : "s"}, ~${formatCount(tokens)} tokens (estimated at 4 characters per token), ${formatBytes(bytes)}`,
  );
}

/** Registers `context` on the program. */
export function registerContext(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program
      .command("context")
      .description("show what would be sent to the model: messages in order with token estimates")
      .argument("<session>", "a session file, id, id prefix or name")
      .option("--leaf <id>", "build the context from this entry (id or unique prefix)")
      .option(
        "--index <file>",
        "session index file (default: $PI_SESSIONS_INDEX, else the cache dir)",
      )
      .option("--no-index", "read the whole session file instead of through the index"),
  ).action((session: string, options: ContextOptions) => runContext(runtime, session, options));
}
