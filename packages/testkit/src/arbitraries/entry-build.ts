/**
 * Turns a {@link BodySpec} into an entry at a given place in a log: common fields, key order
 * as the reference writes it (SPEC §3.2), and symbolic references resolved against the
 * entries before it so that the log stays valid (labels target existing ids, compactions keep
 * an entry of their path, context edits target editable entries of the active branch).
 */

import type { SessionEntry } from "@pi-sessions/core";
import { isoFromMs } from "./common.js";
import type { BodySpec } from "./entry-specs.js";

/** Where an entry goes in a log, and what it may refer to. */
export interface EntryPlace {
  readonly id: string;
  readonly parentId: string | null;
  /** Entry time in ms; the entry's `timestamp` is its ISO form. */
  readonly ms: number;
  /** Ids of the log's entries in file order; the first `earlierCount` come before this one. */
  readonly ids: readonly string[];
  readonly earlierCount: number;
  /** The entries from the root to the parent: the active branch when this entry is appended. */
  readonly path: () => readonly SessionEntry[];
  /** The leaf before this append (the previous entry), or null for the first entry. */
  readonly previousId: string | null;
  /** When set, an unknown field `x_extra` with this value is added (SPEC §2.6). */
  readonly extra?: unknown;
}

/** Copies the optional `keys` of `from` that are present, in order. */
function optional(out: Record<string, unknown>, from: object, keys: readonly string[]): void {
  const src = from as Record<string, unknown>;
  for (const key of keys) if (src[key] !== undefined) out[key] = src[key];
}

/** True for the entries a context edit may target (SPEC §5.4 check 4). */
function isEditable(e: SessionEntry): boolean {
  if (e.type === "custom_message") return true;
  if (e.type !== "message") return false;
  const role = e.message?.role;
  return role === "user" || role === "assistant" || role === "toolResult";
}

/** The role of a message entry, or undefined. */
function roleOf(e: SessionEntry): string | undefined {
  return e.type === "message" ? e.message?.role : undefined;
}

/**
 * Builds the entry `spec` describes at `place`. A label with nothing before it to target
 * becomes a `session_info` entry, and a context edit with no editable entry on its branch
 * becomes a `custom` entry, so that every generated log is valid.
 */
export function buildEntry(spec: BodySpec, place: EntryPlace): SessionEntry {
  const { id, parentId } = place;
  const timestamp = isoFromMs(place.ms);
  const head = { type: spec.kind as string, id, parentId, timestamp };
  let out: Record<string, unknown>;
  switch (spec.kind) {
    case "message":
      out = { ...head, message: { ...spec.message, timestamp: place.ms } };
      break;
    case "thinking_level_change":
      out = { ...head, thinkingLevel: spec.thinkingLevel };
      break;
    case "model_change":
      out = { ...head, provider: spec.provider, modelId: spec.modelId };
      break;
    case "compaction": {
      const path = spec.keep === null ? [] : place.path();
      const kept = path.length > 0 ? (path[(spec.keep ?? 0) % path.length] as SessionEntry) : null;
      out = { ...head, summary: spec.summary, firstKeptEntryId: kept ? kept.id : id };
      out.tokensBefore = spec.tokensBefore;
      optional(out, spec, ["details", "usage", "fromHook", "systemMessage"]);
      break;
    }
    case "branch_summary":
      out = { ...head, fromId: place.previousId ?? "root", summary: spec.summary };
      optional(out, spec, ["details", "usage", "fromHook"]);
      break;
    case "custom":
      out = { type: "custom", customType: spec.customType };
      optional(out, spec, ["data"]);
      out = { ...out, id, parentId, timestamp };
      break;
    case "custom_message":
      out = { type: "custom_message", customType: spec.customType, content: spec.content };
      out.display = spec.display;
      optional(out, spec, ["details"]);
      out = { ...out, id, parentId, timestamp };
      break;
    case "label": {
      if (place.earlierCount === 0) {
        out = { ...head, type: "session_info", name: spec.label || "" };
        break;
      }
      out = { ...head, targetId: place.ids[spec.target % place.earlierCount] };
      // A cleared label is written as given: key left out for undefined, else "" or null.
      if (spec.label !== undefined) out.label = spec.label;
      break;
    }
    case "session_info":
      out = { ...head };
      optional(out, spec, ["name"]);
      break;
    case "usage":
      out = { ...head, kind: spec.usageKind, provider: spec.provider, model: spec.model };
      out.usage = spec.usage;
      if (spec.note) out.note = spec.note;
      break;
    case "context_edit": {
      const targets = place.path().filter(isEditable);
      const target = targets[spec.target % Math.max(1, targets.length)];
      if (target === undefined) {
        out = { type: "custom", customType: "no-edit-target", id, parentId, timestamp };
        break;
      }
      out = { ...head, targetId: target.id, replacement: replacementFor(spec, target) };
      break;
    }
    case "unknown":
      out = { ...head, type: spec.type, payload: spec.payload };
      break;
    default:
      // Compile-time exhaustiveness: every body spec kind is built above.
      throw new Error(
        `no builder for entry kind ${String((spec satisfies never as BodySpec).kind)}`,
      );
  }
  if (place.extra !== undefined) out.x_extra = place.extra;
  // Unknown entry types are not in core's closed union (SPEC §2.6); everything else is.
  return out as unknown as SessionEntry;
}

/** The stored replacement: assistant and tool-result content is always blocks (SPEC §5.4). */
function replacementFor(
  spec: Extract<BodySpec, { kind: "context_edit" }>,
  target: SessionEntry,
): unknown {
  if (spec.replacement === null) return null;
  const { text, asBlocks } = spec.replacement;
  const role = roleOf(target);
  const blocks = asBlocks || role === "assistant" || role === "toolResult";
  return { content: blocks ? [{ type: "text", text }] : text };
}
