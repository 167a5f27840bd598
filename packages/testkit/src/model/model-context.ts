/**
 * The reference model's context rules (SPEC §8), written as directly as the spec states them:
 * walk the path, pick the entries after the last compaction, turn each entry into messages,
 * apply context edits, read the settings. Quadratic where that is clearer; the model only
 * ever holds a few dozen entries.
 */
import { recordsTreeSource, treeIndex } from "@pi-sessions/core";
import type { EntryLike, JsonObject } from "../api-calls/manager-api.js";

/** `{provider, modelId}` or null (SPEC §8.2). */
export type ModelRef = { provider: string; modelId: string } | null;

/** A context entry and the messages it contributes (SPEC §8.5). */
export interface ModelProjectedEntry {
  sourceEntry: EntryLike;
  messages: JsonObject[];
}

/** The model's projection: context entries, messages and settings. */
export interface ModelProjection {
  entries: ModelProjectedEntry[];
  messages: JsonObject[];
  thinkingLevel: string;
  model: ModelRef;
}

const ms = (timestamp: unknown): number => new Date(timestamp as string).getTime();
const messageOf = (entry: EntryLike): JsonObject => entry.message as JsonObject;
const roleOf = (entry: EntryLike): unknown =>
  entry.type === "message" ? (entry.message as JsonObject | undefined)?.role : undefined;

/**
 * Root → leaf path (SPEC §7.6, §8.1): `null` gives none; a known id starts there; `undefined` or an
 * unknown id starts at the last entry. Stops at a missing parent or a repeated id. The walk is
 * core's one path walk; invariant I3 (a branch runs root → entry, parent → child) checks every path
 * it gives independently.
 */
export function modelPath(entries: readonly EntryLike[], leafId: string | null | undefined) {
  if (leafId === null) return [];
  const tree = treeIndex(recordsTreeSource(entries));
  const known = leafId === undefined ? -1 : tree.positionOf(leafId);
  const start = known >= 0 ? known : entries.length - 1;
  return start < 0 ? [] : tree.pathTo(start).map((pos) => entries[pos] as EntryLike);
}

/** Thinking level and model: the last setting on the whole path wins (SPEC §8.2). */
function modelSettings(path: readonly EntryLike[]): {
  thinkingLevel: string;
  model: ModelRef;
} {
  let thinkingLevel = "off";
  let model: ModelRef = null;
  for (const e of path) {
    if (e.type === "thinking_level_change") thinkingLevel = e.thinkingLevel as string;
    if (e.type === "model_change") {
      model = { provider: e.provider as string, modelId: e.modelId as string };
    }
    if (roleOf(e) === "assistant") {
      const m = messageOf(e);
      model = { provider: m.provider as string, modelId: m.model as string };
    }
  }
  return { thinkingLevel, model };
}

/** Context entries (SPEC §8.3): the last compaction, the kept entries before it, all after. */
function modelContextEntries(path: readonly EntryLike[]): EntryLike[] {
  const at = path.map((e) => e.type).lastIndexOf("compaction");
  if (at < 0) return [...path];
  const compaction = path[at] as EntryLike;
  const before = path.slice(0, at);
  const keepFrom = before.findIndex((e) => e.id === compaction.firstKeptEntryId);
  const kept = keepFrom < 0 ? [] : before.slice(keepFrom).filter((e) => roleOf(e) !== "system");
  return [compaction, ...kept, ...path.slice(at + 1)];
}

/** The messages one entry contributes, before edits (SPEC §8.4). */
function modelEntryMessages(entry: EntryLike): JsonObject[] {
  switch (entry.type) {
    case "message": {
      const m = messageOf(entry);
      const missing = m.content === null || m.content === undefined;
      if (missing && m.role === "system") return [{ ...m, content: "" }];
      if (missing && ["user", "assistant", "toolResult"].includes(m.role as string)) {
        return [{ ...m, content: [] }];
      }
      return [m];
    }
    case "custom_message":
      return [
        {
          role: "custom",
          customType: entry.customType,
          content: entry.content ?? [],
          display: entry.display,
          details: entry.details,
          timestamp: ms(entry.timestamp),
        },
      ];
    case "branch_summary":
      if (!entry.summary) return [];
      return [
        {
          role: "branchSummary",
          summary: entry.summary,
          fromId: entry.fromId,
          timestamp: ms(entry.timestamp),
        },
      ];
    case "compaction": {
      const summary = {
        role: "compactionSummary",
        summary: entry.summary,
        tokensBefore: entry.tokensBefore,
        timestamp: ms(entry.timestamp),
      };
      return entry.systemMessage ? [entry.systemMessage as JsonObject, summary] : [summary];
    }
    default:
      return [];
  }
}

const EDITABLE_ROLES = ["user", "assistant", "toolResult", "custom"];

/** The projection (SPEC §8.5): edits applied, only the first compaction summarises. */
export function modelProjection(
  entries: readonly EntryLike[],
  leafId: string | null | undefined,
): ModelProjection {
  const path = modelPath(entries, leafId);
  const contextEntries = modelContextEntries(path);
  const lastEdit = new Map<string, EntryLike>();
  for (const e of contextEntries) {
    if (e.type === "context_edit") lastEdit.set(e.targetId as string, e);
  }
  const projected = contextEntries.map((sourceEntry, index) => {
    if (sourceEntry.type === "compaction" && index > 0) return { sourceEntry, messages: [] };
    const messages = modelEntryMessages(sourceEntry);
    const edit = lastEdit.get(sourceEntry.id);
    if (!edit) return { sourceEntry, messages };
    const replacement = edit.replacement as { content: unknown } | null;
    if (replacement === null) return { sourceEntry, messages: [] };
    const edited = messages.map((m) => {
      if (!EDITABLE_ROLES.includes(m.role as string)) return m;
      const toBlocks =
        (m.role === "assistant" || m.role === "toolResult") &&
        typeof replacement.content === "string";
      const content = toBlocks
        ? [{ type: "text", text: replacement.content }]
        : replacement.content;
      return { ...m, content };
    });
    return { sourceEntry, messages: edited };
  });
  return {
    entries: projected,
    messages: projected.flatMap((p) => p.messages),
    ...modelSettings(path),
  };
}

/** The text of a system message's content: a string, or its text blocks joined by `\n`. */
function systemText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b) => (b as JsonObject | null)?.type === "text")
    .map((b) => (b as JsonObject).text)
    .join("\n");
}

/**
 * The prompt checkpoint a compaction records (SPEC §5.4, [R1.6]): undefined without system
 * messages; otherwise non-empty texts joined by a blank line, sections patched in order
 * (`null` deletes), tools removed then added by name, and the compaction's time in ms.
 */
export function modelSystemCheckpoint(
  messages: readonly JsonObject[],
  timestampMs: number,
): JsonObject | undefined {
  const systems = messages.filter((m) => m.role === "system");
  if (systems.length === 0) return undefined;
  const texts: string[] = [];
  const sections = new Map<string, unknown>();
  const tools = new Map<string, unknown>();
  for (const m of systems) {
    const text = systemText(m.content);
    if (text.length > 0) texts.push(text);
    for (const [name, value] of Object.entries((m.sections as JsonObject | undefined) ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
    for (const t of (m.toolsRemoved as JsonObject[] | undefined) ?? [])
      tools.delete(t.name as string);
    for (const t of (m.toolsAdded as JsonObject[] | undefined) ?? [])
      tools.set(t.name as string, t);
  }
  return {
    role: "system",
    content: texts.join("\n\n"),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.size > 0 ? { toolsAdded: [...tools.values()] } : {}),
    timestamp: timestampMs,
  };
}
