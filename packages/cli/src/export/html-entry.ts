/**
 * One entry as HTML for the exported page. Every value read from the entry is escaped, and
 * every field is read defensively: a damaged or foreign entry (wrong types, unknown roles and
 * blocks) renders as what it is, with its raw JSON, instead of throwing.
 */
import {
  type EntryTypeTable,
  isBuiltInEntryType,
  type SessionEntry,
  systemPrompt,
} from "@pi-sessions/core";
import {
  asFiniteNumber,
  asString,
  isJsonRecord,
  type JsonRecord,
  type LooseEntry,
} from "@pi-sessions/core/internal";
import { entryAnchor, escapeHtml as esc } from "./html-escape.js";

/** What an entry's rendering may look up besides the entry. */
export interface EntryHtmlContext {
  /** The current label of an entry id, if any. */
  readonly getLabel: (id: string) => string | undefined;
  /** Whether an entry with this id is on the page (so a link to it resolves). */
  readonly isOnPage: (id: string) => boolean;
}

/** Pretty JSON of any value; never throws (cycles cannot come from JSON, but be safe). */
function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

const pre = (text: string, cls = "") => `<pre${cls ? ` class="${cls}"` : ""}>${esc(text)}</pre>`;

/** A link to another entry, or just its id in code when it is not on the page. */
function ref(id: unknown, ctx: EntryHtmlContext): string {
  const s = asString(id);
  if (s === undefined) return "<code>?</code>";
  return ctx.isOnPage(s)
    ? `<a href="#${entryAnchor(s)}"><code>${esc(s)}</code></a>`
    : `<code>${esc(s)}</code>`;
}

/** Content that is a string or an array of blocks (text, image, thinking, toolCall, other). */
function contentHtml(content: unknown): string {
  if (typeof content === "string") return pre(content, "text");
  if (!Array.isArray(content)) return content === undefined ? "" : pre(json(content), "raw");
  return content.map(blockHtml).join("");
}

function blockHtml(block: unknown): string {
  if (!isJsonRecord(block)) return pre(json(block), "raw");
  switch (block.type) {
    case "text":
      return pre(asString(block.text) ?? json(block.text), "text");
    case "thinking":
      return `<details class="thinking"><summary>thinking${block.redacted === true ? " (redacted)" : ""}</summary>${pre(asString(block.thinking) ?? "")}</details>`;
    case "toolCall":
      return `<div class="tool-call"><span class="tag">tool call</span> <b>${esc(asString(block.name) ?? "?")}</b> <code>${esc(asString(block.id) ?? "")}</code>${pre(json(block.arguments), "args")}</div>`;
    case "image": {
      const bytes = Math.floor(((asString(block.data)?.length ?? 0) * 3) / 4);
      return `<div class="image">[image ${esc(asString(block.mimeType) ?? "?")}, ${bytes} bytes]</div>`;
    }
    default:
      return pre(json(block), "raw");
  }
}

function usageHtml(usage: unknown): string {
  if (!isJsonRecord(usage)) return "";
  const parts = [
    `in ${asFiniteNumber(usage.input) ?? 0}`,
    `out ${asFiniteNumber(usage.output) ?? 0}`,
    `cache r/w ${asFiniteNumber(usage.cacheRead) ?? 0}/${asFiniteNumber(usage.cacheWrite) ?? 0}`,
  ];
  const cost = isJsonRecord(usage.cost) ? asFiniteNumber(usage.cost.total) : undefined;
  if (cost !== undefined) parts.push(`$${cost.toFixed(4)}`);
  return `<span class="usage">${esc(parts.join(" · "))}</span>`;
}

/** The heading row of a message: role, extra facts, usage. */
function head(kind: string, extra = ""): string {
  return `<div class="head"><span class="role">${esc(kind)}</span>${extra}</div>`;
}

/** A system message: its prompt (pi 1.6 keeps it in `sections`) and the tools it changes. */
function systemHtml(message: JsonRecord): string {
  const prompt = systemPrompt(message);
  const notes: [string, readonly string[]][] = [
    ["tools added", prompt.toolsAdded],
    ["tools removed", prompt.toolsRemoved],
    ["sections removed", prompt.sectionsRemoved],
  ];
  const meta = notes
    .filter(([, names]) => names.length > 0)
    .map(([label, names]) => `<div class="meta">${esc(`${label}: ${names.join(", ")}`)}</div>`)
    .join("");
  return `${head("system")}<details><summary>system prompt</summary>${pre(prompt.text, "text")}</details>${meta}`;
}

function messageHtml(message: unknown): string {
  if (!isJsonRecord(message)) return head("message") + pre(json(message), "raw");
  const role = asString(message.role) ?? "?";
  switch (role) {
    case "user":
      return head("user") + contentHtml(message.content);
    case "assistant": {
      const model = [asString(message.provider), asString(message.model)].filter(Boolean).join("/");
      const stop = asString(message.stopReason);
      const error = asString(message.errorMessage);
      return (
        head(
          "assistant",
          ` <span class="meta">${esc(model)}${stop ? ` · ${esc(stop)}` : ""}</span> ${usageHtml(message.usage)}`,
        ) +
        contentHtml(message.content) +
        (error ? `<div class="error">${esc(error)}</div>` : "")
      );
    }
    case "toolResult": {
      const failed = message.isError === true;
      return `${head(
        "tool result",
        ` <b>${esc(asString(message.toolName) ?? "?")}</b> <code>${esc(asString(message.toolCallId) ?? "")}</code>${failed ? ' <span class="error">error</span>' : ""}`,
      )}<details class="output"${failed ? " open" : ""}><summary>output</summary>${contentHtml(message.content)}</details>`;
    }
    case "bashExecution":
      return `${head("bash", ` <span class="meta">exit ${esc(String(message.exitCode ?? "?"))}</span>`)}${pre(`$ ${asString(message.command) ?? ""}`, "command")}<details class="output"><summary>output</summary>${pre(asString(message.output) ?? "")}</details>`;
    case "custom":
      return (
        head("custom", ` <b>${esc(asString(message.customType) ?? "?")}</b>`) +
        contentHtml(message.content)
      );
    case "branchSummary":
    case "compactionSummary":
      return head(role) + pre(asString(message.summary) ?? "", "text");
    case "system":
      return systemHtml(message);
    default:
      return head(role) + pre(json(message), "raw");
  }
}

type BodyFn = (e: LooseEntry, ctx: EntryHtmlContext) => string;

/** The inner HTML of each built-in entry type (`satisfies`: a new type must get one). */
const ENTRY_BODIES = {
  message: (e) => messageHtml(e.message),
  compaction: (e, ctx) =>
    `${head("compaction", ` <span class="meta">${esc(String(asFiniteNumber(e.tokensBefore) ?? "?"))} tokens before · kept from ${ref(e.firstKeptEntryId, ctx)}</span> ${usageHtml(e.usage)}`)}${pre(asString(e.summary) ?? "", "text")}${e.details === undefined ? "" : `<details><summary>details</summary>${pre(json(e.details))}</details>`}`,
  branch_summary: (e, ctx) =>
    `${head("branch summary", ` <span class="meta">of the branch ending at ${ref(e.fromId, ctx)}</span> ${usageHtml(e.usage)}`)}${pre(asString(e.summary) ?? "", "text")}`,
  model_change: (e) =>
    head(
      "model",
      ` <span class="meta">→ ${esc(`${asString(e.provider) ?? "?"}/${asString(e.modelId) ?? "?"}`)}</span>`,
    ),
  thinking_level_change: (e) =>
    head("thinking", ` <span class="meta">→ ${esc(asString(e.thinkingLevel) ?? "?")}</span>`),
  label: (e, ctx) => {
    const label = asString(e.label);
    return head(
      "label",
      ` <span class="meta">${ref(e.targetId, ctx)} ${label ? `→ “${esc(label)}”` : "cleared"}</span>`,
    );
  },
  session_info: (e) =>
    head("name", ` <span class="meta">${esc(asString(e.name) ?? "(cleared)")}</span>`),
  usage: (e) =>
    head(
      "usage",
      ` <span class="meta">${esc(`${asString(e.kind) ?? "?"} · ${asString(e.provider) ?? "?"}/${asString(e.model) ?? "?"}`)}</span> ${usageHtml(e.usage)}`,
    ),
  context_edit: (e, ctx) =>
    `${head("context edit", ` <span class="meta">of ${ref(e.targetId, ctx)}</span>`)}${pre(json(e.replacement), "raw")}`,
  custom: (e) =>
    head("custom", ` <b>${esc(asString(e.customType) ?? "?")}</b>`) + pre(json(e.data), "raw"),
  custom_message: (e) =>
    head("custom message", ` <b>${esc(asString(e.customType) ?? "?")}</b>`) +
    contentHtml(e.content),
} satisfies EntryTypeTable<BodyFn>;

/** The inner HTML of one entry (without its wrapper); an unknown type shows its JSON. */
function bodyHtml(entry: SessionEntry, ctx: EntryHtmlContext): string {
  const e = entry as unknown as LooseEntry;
  if (isBuiltInEntryType(e.type)) return ENTRY_BODIES[e.type](e, ctx);
  return head(String(e.type)) + pre(json(entry), "raw");
}

/** CSS class of an entry's wrapper: its type, and its role for messages. */
function entryClass(entry: SessionEntry): string {
  const e = entry as unknown as LooseEntry;
  const role =
    entry.type === "message" && isJsonRecord(e.message) ? asString(e.message.role) : undefined;
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");
  return `entry t-${safe(String(entry.type))}${role ? ` r-${safe(role)}` : ""}`;
}

/**
 * One entry as an `<article>` with its anchor, id, time and current label; `leafBadge` marks
 * the leaf the page was exported at ("current leaf" or "selected leaf").
 */
export function entryHtml(
  entry: SessionEntry,
  ctx: EntryHtmlContext,
  leafBadge: string | undefined,
): string {
  const isLeaf = leafBadge !== undefined;
  const id = asString(entry.id) ?? "";
  const label = ctx.getLabel(id);
  const time = asString(entry.timestamp) ?? "";
  return `<article class="${entryClass(entry)}${isLeaf ? " leaf" : ""}" id="${entryAnchor(id)}" data-id="${esc(id)}"><div class="ids"><code>${esc(id)}</code> <time>${esc(time)}</time>${label ? ` <span class="label-badge">label: ${esc(label)}</span>` : ""}${isLeaf ? ` <span class="leaf-badge">${esc(leafBadge)}</span>` : ""}</div>${bodyHtml(entry, ctx)}</article>`;
}
