/**
 * Default rendering of every built-in entry type (SPEC §3.2), of unknown types and of records
 * that are not entries at all.
 */
import { type EntryTypeTable, isBuiltInEntryType } from "@pi-sessions/core";
import { asString } from "@pi-sessions/core/internal";
import { renderDefaultMessage } from "./default-messages.js";
import { type Fmt, fmtFor } from "./format.js";
import { contentParts, jsonBlock, usagePart } from "./parts.js";
import { referenceTo } from "./reference.js";
import { formatInt, get, safeString } from "./text.js";
import type { RenderContext } from "./types.js";

type EntryFn = (fmt: Fmt, ctx: RenderContext, entry: unknown, id?: string) => string;

function compaction(fmt: Fmt, ctx: RenderContext, e: unknown, id?: string): string {
  const kept = get(e, "firstKeptEntryId");
  const tokens = get(e, "tokensBefore");
  const facts: string[] = [];
  if (typeof tokens === "number") facts.push(`${formatInt(tokens)} tokens summarised`);
  if (typeof kept === "string") {
    facts.push(kept === id ? "nothing kept" : `kept from ${referenceTo(fmt, ctx, kept)}`);
  }
  if (get(e, "fromHook") === true) facts.push("by an extension");
  const parts = [
    facts.length > 0 ? fmt.note(facts.join(" · ")) : "",
    fmt.prose(safeString(get(e, "summary") ?? "")),
    usagePart(fmt, get(e, "usage")),
  ];
  return fmt.block("Compaction", id, parts);
}

function branchSummary(fmt: Fmt, ctx: RenderContext, e: unknown, id?: string): string {
  const from = get(e, "fromId");
  const facts = [`left branch at ${from === "root" ? "the root" : referenceTo(fmt, ctx, from)}`];
  if (get(e, "fromHook") === true) facts.push("by an extension");
  const parts = [
    fmt.note(facts.join(" · ")),
    fmt.prose(safeString(get(e, "summary") ?? "")),
    usagePart(fmt, get(e, "usage")),
  ];
  return fmt.block("Branch summary", id, parts);
}

function custom(fmt: Fmt, ctx: RenderContext, e: unknown, id?: string): string {
  const type = fmt.inline(asString(get(e, "customType")) ?? "?");
  const data = get(e, "data");
  return fmt.block(`Custom entry · ${type}`, id, [
    data === undefined ? fmt.note("no data") : jsonBlock(fmt, ctx, data),
  ]);
}

function customMessage(fmt: Fmt, ctx: RenderContext, e: unknown, id?: string): string {
  const type = fmt.inline(asString(get(e, "customType")) ?? "?");
  const hidden = get(e, "display") === false ? " · hidden" : "";
  return fmt.block(
    `Custom message · ${type}${hidden}`,
    id,
    contentParts(fmt, ctx, get(e, "content")),
  );
}

function label(fmt: Fmt, ctx: RenderContext, e: unknown, id?: string): string {
  const text = get(e, "label");
  const on = referenceTo(fmt, ctx, get(e, "targetId"));
  return text
    ? fmt.line(`Label ${fmt.inline(`"${safeString(text)}"`)} on ${on}`, id)
    : fmt.line(`Label cleared on ${on}`, id);
}

function sessionInfo(fmt: Fmt, _ctx: RenderContext, e: unknown, id?: string): string {
  const name = asString(get(e, "name"))?.trim();
  return name
    ? fmt.line(`Session name: ${fmt.inline(name)}`, id)
    : fmt.line("Session name cleared", id);
}

function usage(fmt: Fmt, _ctx: RenderContext, e: unknown, id?: string): string {
  const model = `${asString(get(e, "provider")) ?? "?"}/${asString(get(e, "model")) ?? "?"}`;
  const kind = asString(get(e, "kind")) ?? "?";
  const note = asString(get(e, "note"));
  return fmt.block(`Usage · ${fmt.inline(kind)} · ${fmt.inline(model)}`, id, [
    usagePart(fmt, get(e, "usage")) || fmt.note("no usage data"),
    note ? fmt.note(fmt.inline(note)) : "",
  ]);
}

function contextEdit(fmt: Fmt, ctx: RenderContext, e: unknown, id?: string): string {
  const on = referenceTo(fmt, ctx, get(e, "targetId"));
  const replacement = get(e, "replacement");
  if (replacement === null || typeof replacement !== "object") {
    return fmt.line(`Context edit: ${on} removed from context`, id);
  }
  return fmt.block(
    `Context edit · replaces ${on}`,
    id,
    contentParts(fmt, ctx, get(replacement, "content")),
  );
}

/** The rendering of each built-in entry type (`satisfies`: a new type must get one). */
const ENTRY_RENDERERS = {
  message: (fmt, ctx, e, id) => renderDefaultMessage(fmt, ctx, get(e, "message"), id),
  thinking_level_change: (fmt, _ctx, e, id) =>
    fmt.line(`Thinking level: ${fmt.inline(safeString(get(e, "thinkingLevel") ?? "?"))}`, id),
  model_change: (fmt, _ctx, e, id) =>
    fmt.line(
      `Model: ${fmt.inline(`${asString(get(e, "provider")) ?? "?"}/${asString(get(e, "modelId")) ?? "?"}`)}`,
      id,
    ),
  compaction,
  branch_summary: branchSummary,
  custom,
  custom_message: customMessage,
  label,
  session_info: sessionInfo,
  usage,
  context_edit: contextEdit,
} satisfies EntryTypeTable<EntryFn>;

/**
 * The default rendering of any record: each built-in type has its own; an unknown type or a
 * record that is not an object shows its JSON. Custom renderers can call it to wrap it.
 */
export function renderDefaultEntry(entry: unknown, ctx: RenderContext): string {
  return renderDefaultEntryAs(fmtFor(ctx), entry, ctx);
}

/** {@link renderDefaultEntry} in the flavour of `fmt` (how HTML reuses every default). */
export function renderDefaultEntryAs(fmt: Fmt, entry: unknown, ctx: RenderContext): string {
  const rawId = get(entry, "id");
  const id = ctx.showIds && typeof rawId === "string" ? rawId : undefined;
  const type = get(entry, "type");
  if (isBuiltInEntryType(type)) return ENTRY_RENDERERS[type](fmt, ctx, entry, id);
  const title =
    typeof entry !== "object" || entry === null
      ? "Unreadable record"
      : typeof type === "string"
        ? `Entry of unknown type ${fmt.inline(type)}`
        : "Entry without a type";
  return fmt.block(title, id, [jsonBlock(fmt, ctx, entry)]);
}
