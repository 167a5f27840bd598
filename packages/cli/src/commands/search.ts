/**
 * `pi-sessions search <query…> [--cwd DIR] [--role R] [--since DATE] [--json]` — full-text
 * search of the transcripts under the sessions directory through the session index: each hit
 * with its session, entry id, role, time and a snippet, best match first. `--no-index` indexes
 * into memory for this run only (nothing written anywhere).
 */

import { isSearchedRole, type MessageRole, SEARCHED_ROLES } from "@pi-sessions/core";
import type { SearchFilters, SearchHit, SessionIndex } from "@pi-sessions/index";
import { IndexUnavailableError, SearchQueryError } from "@pi-sessions/index";
import { type Command, InvalidArgumentError } from "commander";
import { ExitCode, usageError } from "../io/errors.js";
import { withIndex } from "../io/index-access.js";
import { type IndexOption, MEMORY } from "../io/index-file.js";
import { formatDate, pad, truncate } from "../io/output.js";
import { parseDate, parsePositiveInt } from "../io/parse-args.js";
import { progressOn } from "../io/progress.js";
import {
  type CliRuntime,
  type CommandContext,
  type CommonOptions,
  withCommonOptions,
} from "../io/runtime.js";
import { shortIdsUnder } from "../session/header-ids.js";
import { MIN_SHORT_ID } from "../session/short-ids.js";
import { cwdOption } from "./ls.js";

/** Options of `search`. */
interface SearchOptions extends CommonOptions {
  cwd?: string;
  role?: MessageRole[];
  model?: string;
  session?: string;
  since?: Date;
  until?: Date;
  limit?: number;
  index?: IndexOption;
}

/**
 * Parses `--role user,assistant`: comma-separated names among the roles search looks in
 * (core's `SEARCHED_ROLES`, which the index keeps text for); any other name is refused with the
 * list, never searched for (it could only match nothing, silently). A repeated `--role` adds
 * to the roles of the earlier ones (`previous`, as commander passes it), each role once.
 */
export function parseRoles(value: string, previous: readonly MessageRole[] = []): MessageRole[] {
  const roles = value.split(",").map((role) => role.trim());
  const unknown = roles.filter((role) => !isSearchedRole(role));
  if (unknown.length > 0) {
    const names = unknown.map((role) => JSON.stringify(role)).join(", ");
    throw new InvalidArgumentError(
      `unknown role ${names}; the roles search looks in are ${SEARCHED_ROLES.join(", ")}`,
    );
  }
  return [...new Set([...previous, ...(roles as MessageRole[])])];
}

/** The filters the options ask for. */
function filtersOf(ctx: CommandContext, options: SearchOptions): SearchFilters {
  return {
    dir: ctx.sessionsRoot,
    limit: options.limit ?? 20,
    ...(options.cwd === undefined ? {} : { cwd: cwdOption(ctx, options.cwd) }),
    ...(options.role === undefined ? {} : { role: options.role }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.session === undefined ? {} : { session: options.session }),
    ...(options.since === undefined ? {} : { since: options.since }),
    ...(options.until === undefined ? {} : { until: options.until }),
  };
}

/** Characters of a snippet shown in the table (`--json` has it whole). */
const SNIPPET_WIDTH = 100;

/** One hit as two lines: when, session, entry, role and snippet; then the file and line. */
function printHits(ctx: CommandContext, hits: readonly SearchHit[]): void {
  if (hits.length === 0) return;
  const c = ctx.colors;
  // Each session id as the shortest prefix `tree`/`context` take back among all sessions.
  const shortId = shortIdsUnder(ctx.sessionsRoot);
  const ids = hits.map((hit) => shortId(hit.sessionId));
  const idWidth = ids.reduce((width, id) => Math.max(width, id.length), MIN_SHORT_ID);
  for (const [i, hit] of hits.entries()) {
    const when = hit.timestamp === null ? pad("", 16) : formatDate(new Date(hit.timestamp));
    const text = truncate(hit.snippet.replace(/\s+/g, " "), SNIPPET_WIDTH);
    const snippet = text.replace(/\[[^\]]*\]/g, (word) => c.bold(word));
    ctx.out(
      `${when}  ${c.dim(pad(ids[i] as string, idWidth))}  ${pad(hit.entryId ?? "-", 8)}  ${pad(hit.role ?? hit.type ?? "-", 10)}  ${snippet}`,
    );
    ctx.out(c.dim(`${" ".repeat(18)}${hit.path}:${hit.line}`));
  }
}

/** Runs `search`: through the index, or an in-memory one for `--no-index` or when it fails. */
async function runSearch(
  runtime: CliRuntime,
  words: readonly string[],
  options: SearchOptions,
): Promise<void> {
  const ctx = runtime.context(options);
  const query = words.join(" ");
  const filters = filtersOf(ctx, options);
  const search = async (index: SessionIndex | undefined) => {
    if (index !== undefined) {
      // The first search after a first `ls` reads every session once more for its text: a bar
      // on a terminal says how far it is.
      const progress = progressOn(ctx.io.stderr, "indexing sessions for search");
      try {
        return await index.search(query, filters, (done, total) => progress.update(done, total));
      } catch (error) {
        // The index could not catch up (its notice said so): its rows may be stale.
        if (!(error instanceof IndexUnavailableError)) throw error;
      } finally {
        progress.done();
      }
    }
    // No usable index file: index the sessions into memory for this one search.
    return withIndex(ctx, MEMORY, async (memory) => {
      if (memory === undefined) throw usageError("search needs SQLite, which does not load here");
      return memory.search(query, filters);
    });
  };
  let hits: SearchHit[];
  try {
    hits = await withIndex(ctx, options.index === false ? false : options.index, search);
  } catch (error) {
    if (error instanceof SearchQueryError) throw usageError(error.message);
    throw error;
  }
  if (ctx.json) ctx.printJson(hits);
  else printHits(ctx, hits);
  if (hits.length === 0) {
    ctx.err(`pi-sessions: no entry matches ${JSON.stringify(query)} in ${ctx.sessionsRoot}`);
    runtime.exit(ExitCode.problems);
  }
}

/** Registers `search` on the program. */
export function registerSearch(program: Command, runtime: CliRuntime): void {
  withCommonOptions(
    program
      .command("search")
      .description(
        "full-text search of every session's messages, best match first (uses the index)",
      )
      .argument("<query...>", "words that must all occur; a word ending in * matches as a prefix")
      .option("--cwd <dir>", "only sessions of this working directory")
      .option(
        "--role <roles>",
        `only these roles: ${SEARCHED_ROLES.join(", ")} (comma-separated, or --role repeated)`,
        parseRoles,
      )
      .option("--model <id>", "only entries of this model")
      .option("--session <id>", "only this session (id, id prefix or file path)")
      .option("--since <date>", "only entries at or after this date", parseDate)
      .option("--until <date>", "only entries before this date", parseDate)
      .option("--limit <n>", "at most this many hits (default 20)", parsePositiveInt)
      .option(
        "--index <file>",
        "session index file (default: $PI_SESSIONS_INDEX, else the cache dir)",
      )
      .option("--no-index", "index into memory for this search instead of using the index file"),
  ).action((words: string[], options: SearchOptions) => runSearch(runtime, words, options));
}
