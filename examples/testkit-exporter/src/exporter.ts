/**
 * A minimal pi-session → Markdown exporter, written as a third-party tool would: it reads
 * the JSONL text itself (no @pi-sessions packages at run time) and prints the active branch —
 * the path from the root to the last entry, as pi resumes it.
 *
 * It must never throw, whatever the file holds: lines that are not JSON objects, records
 * without an id, a second header, cycles in the parent links and messages of any shape are
 * skipped or rendered as far as they make sense. The tests check that with the testkit.
 */

/** A record of the file, as parsed: any JSON object. */
type Json = Record<string, unknown>;

/** What {@link readSession} found in the text. */
export interface ParsedSession {
  /** The first `type: "session"` record, if any. */
  header: Json | undefined;
  /** Records with a string `id` (not headers), in file order. */
  entries: Json[];
  /** Lines that were not used: not JSON, not an object, no id, or a second header. */
  skippedLines: number;
}

/** Options of {@link exportMarkdown}. */
export interface ExportOptions {
  /** Include thinking blocks as quotes (default false). */
  thinking?: boolean;
  /** Include tool results as fenced blocks (default true). */
  toolResults?: boolean;
}

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Splits the text into lines and keeps the header and the entries with an id. */
export function readSession(text: string): ParsedSession {
  const out: ParsedSession = { header: undefined, entries: [], skippedLines: 0 };
  // A byte-order mark is no part of the first line's JSON; left on, it costs the header.
  for (const line of text.replace(/^\uFEFF/, "").split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      out.skippedLines++;
      continue;
    }
    if (isObject(value) && value.type === "session" && out.header === undefined) out.header = value;
    else if (isObject(value) && value.type !== "session" && typeof value.id === "string") {
      out.entries.push(value);
    } else out.skippedLines++;
  }
  return out;
}

/** Root → last entry, following `parentId`; a repeated id (a cycle) ends the walk. */
export function activeBranch(entries: readonly Json[]): Json[] {
  const byId = new Map<string, Json>();
  for (const e of entries) byId.set(e.id as string, e); // later duplicates win, as in pi
  const path: Json[] = [];
  const seen = new Set<string>();
  let current = entries.at(-1);
  while (current && !seen.has(current.id as string)) {
    seen.add(current.id as string);
    path.push(current);
    current = typeof current.parentId === "string" ? byId.get(current.parentId) : undefined;
  }
  return path.reverse();
}

/** The text of message content: a string, or the `text` of its text blocks. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is Json => isObject(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("\n\n");
}

const fence = (text: string): string => {
  const ticks = "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}text\n${text}\n${ticks}`;
};
const quote = (text: string): string => text.replace(/^/gm, "> ");

/**
 * A section: the heading, a blank line, the body without trailing whitespace (Markdown
 * ignores it, and sections are separated by one blank line), or `_(empty)_`.
 */
export function section(heading: string, body: string): string {
  const text = body.trimEnd();
  return `${heading}\n\n${text === "" ? "_(empty)_" : text}`;
}

/** The Markdown of one message, or undefined for roles that are not shown. */
function renderMessage(m: Json, options: ExportOptions): string | undefined {
  const content = Array.isArray(m.content) ? m.content.filter(isObject) : [];
  switch (m.role) {
    case "user":
      return section("## User", textOf(m.content));
    case "assistant": {
      const parts: string[] = [];
      for (const block of content) {
        if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
        if (block.type === "thinking" && options.thinking && typeof block.thinking === "string") {
          parts.push(quote(block.thinking));
        }
        if (block.type === "toolCall") {
          parts.push(`\`${String(block.name)}(${JSON.stringify(block.arguments ?? {})})\``);
        }
      }
      return section(
        `## Assistant${typeof m.model === "string" ? ` · ${m.model}` : ""}`,
        parts.join("\n\n"),
      );
    }
    case "toolResult":
      if (options.toolResults === false) return undefined;
      return section(
        `### Tool result · ${String(m.toolName)}${m.isError ? " (error)" : ""}`,
        fence(textOf(m.content)),
      );
    case "custom":
      return m.display === false
        ? undefined
        : section(`## ${String(m.customType)}`, textOf(m.content));
    default:
      return undefined;
  }
}

/** The Markdown of one entry, or undefined when it shows nothing. */
function renderEntry(e: Json, options: ExportOptions): string | undefined {
  switch (e.type) {
    case "message":
      return isObject(e.message) ? renderMessage(e.message, options) : undefined;
    case "compaction":
      return section("### Earlier conversation (summary)", quote(String(e.summary ?? "")));
    case "branch_summary":
      return e.summary
        ? section("### Summary of another branch", quote(String(e.summary)))
        : undefined;
    case "custom_message":
      return e.display === false
        ? undefined
        : section(`## ${String(e.customType)}`, textOf(e.content));
    default:
      return undefined;
  }
}

/** The session's name: the latest `session_info` in the file, trimmed (empty clears it). */
export function sessionName(entries: readonly Json[]): string | undefined {
  const info = entries.findLast((e) => e.type === "session_info");
  return typeof info?.name === "string" ? info.name.trim() || undefined : undefined;
}

/**
 * The active branch of a session file as Markdown: a title (the session name or id), then
 * one section per message, summary or shown custom message. Never throws.
 */
export function exportMarkdown(text: string, options: ExportOptions = {}): string {
  const { header, entries } = readSession(text);
  const title = sessionName(entries) ?? `Session ${String(header?.id ?? "(no header)")}`;
  const sections = [`# ${title.replace(/[\r\n]+/g, " ")}`];
  if (typeof header?.cwd === "string" && header.cwd.trim() !== "") {
    sections.push(`_${header.cwd.replace(/[\r\n]+/g, " ").trim()}_`);
  }
  for (const e of activeBranch(entries)) {
    const md = renderEntry(e, options);
    if (md !== undefined) sections.push(md);
  }
  return `${sections.join("\n\n")}\n`;
}
