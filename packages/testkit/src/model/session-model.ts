/**
 * A deliberately simple reference model of one in-memory pi session (SPEC §5, §7, §9): an
 * array of entries, a map from id to entry, a leaf and a label map. Every query is a plain
 * scan. Ids and timestamps are random and read from the wall clock in real implementations,
 * so the model takes both from the implementation under test (and the commands check their
 * form); everything else it predicts.
 */
import { recordsTreeSource, treeIndex } from "@pi-sessions/core";
import type { EntryLike, JsonObject } from "../api-calls/manager-api.js";
import { resolveLabelsOf } from "../invariants/tree.js";
import { modelPath, modelProjection, modelSystemCheckpoint } from "./model-context.js";

/** A label as resolved over the whole file (SPEC §7.10). */
export interface ModelLabel {
  label: string;
  timestamp: string;
}

/** A tree node of the model, children already ordered (SPEC §7.8). */
export interface ModelTreeNode {
  entry: EntryLike;
  children: ModelTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

/** The exact message of SPEC §5.5 for an unknown id. */
export const notFound = (id: string): string => `Entry ${id} not found`;

/** The reference model. Public fields are read by the checks; commands change it by methods. */
export class SessionModel {
  /** Non-header entries in file order. */
  entries: EntryLike[] = [];
  leafId: string | null = null;
  /** The label map last resolved, and the entries it was resolved from. */
  private labelCache:
    | { entries: EntryLike[]; length: number; labels: Map<string, ModelLabel> }
    | undefined;
  /** Every id ever created here, dropped ones included: commands pick targets from it. */
  readonly knownIds: string[] = [];
  /** The session id (from the implementation; it changes on createBranchedSession). */
  sessionId: string | undefined;

  /**
   * Resolved labels in the map's insertion order (createBranchedSession keeps it), by the testkit's
   * one label oracle (the one invariant I4, the tree's shape, order and labels, checks
   * implementations against).
   */
  get labels(): ReadonlyMap<string, ModelLabel> {
    const cache = this.labelCache;
    if (cache?.entries === this.entries && cache.length === this.entries.length) {
      return cache.labels;
    }
    const labels = new Map<string, ModelLabel>();
    for (const [id, [label, timestamp]] of resolveLabelsOf(this.entries)) {
      labels.set(id, { label: label as string, timestamp });
    }
    this.labelCache = { entries: this.entries, length: this.entries.length, labels };
    return labels;
  }

  /** The entry with `id` (the last one in file order, as lookups are last-wins). */
  entry(id: string): EntryLike | undefined {
    return this.entries.findLast((e) => e.id === id);
  }

  has(id: string): boolean {
    return this.entry(id) !== undefined;
  }

  /** `getBranch(fromId?)`: a falsy or unknown start gives `[]` (SPEC §7.6). */
  branch(fromId?: string): EntryLike[] {
    const start = fromId ?? this.leafId;
    if (!start || !this.has(start)) return [];
    return modelPath(this.entries, start);
  }

  /** `getChildren(parentId)`: file order, not sorted (SPEC §7.7). */
  children(parentId: string): EntryLike[] {
    return this.entries.filter((e) => e.parentId === parentId);
  }

  /** `getSessionName()`: the latest session_info, trimmed; empty clears (SPEC §7.11). */
  name(): string | undefined {
    const info = this.entries.findLast((e) => e.type === "session_info");
    return (info?.name as string | undefined)?.trim() || undefined;
  }

  /**
   * `getTree()` (SPEC §7.8) from core's tree index: roots in file order (null parent, self-parent
   * or unknown parent); children sorted by timestamp with a stable sort. Invariant I4 (the tree)
   * checks the order and cut independently of the index.
   */
  tree(): ModelTreeNode[] {
    const tree = treeIndex(recordsTreeSource(this.entries));
    const labels = this.labels;
    const node = (pos: number): ModelTreeNode => {
      const entry = this.entries[pos] as EntryLike;
      const label = labels.get(entry.id);
      return {
        entry,
        children: tree.children(pos).map(node),
        ...(label ? { label: label.label, labelTimestamp: label.timestamp } : {}),
      };
    };
    return tree.roots().map(node);
  }

  /** The projection of the current leaf (SPEC §8.5). */
  projection() {
    return modelProjection(this.entries, this.leafId);
  }

  // --- changes ------------------------------------------------------------------------

  /** Appends an entry the commands built: a child of the leaf, which moves to it (§5.1). */
  append(entry: EntryLike): void {
    this.entries.push(entry);
    this.knownIds.push(entry.id);
    this.leafId = entry.id;
  }

  /** The common fields of a new entry: id, parent = leaf, timestamp. */
  base(type: string, id: string, timestamp: string): EntryLike {
    return { type, id, parentId: this.leafId, timestamp };
  }

  /** The compaction entry `appendCompaction` writes (SPEC §3.2, §5.4). */
  compaction(
    id: string,
    timestamp: string,
    args: {
      summary: string;
      keep: string | null | undefined;
      tokensBefore: number;
      details?: unknown;
      fromHook?: boolean;
      usage?: unknown;
    },
  ): EntryLike {
    const checkpoint = modelSystemCheckpoint(
      this.projection().messages,
      new Date(timestamp).getTime(),
    );
    return {
      ...this.base("compaction", id, timestamp),
      summary: args.summary,
      firstKeptEntryId: args.keep ?? id,
      tokensBefore: args.tokensBefore,
      details: args.details,
      usage: args.usage,
      fromHook: args.fromHook,
      ...(checkpoint ? { systemMessage: checkpoint } : {}),
    };
  }

  /**
   * The error `appendContextEdit(targetId, replacement)` must throw, checked in the order of
   * SPEC §5.4, or undefined when it is allowed.
   */
  contextEditError(targetId: string, replacement: unknown): string | undefined {
    const r = replacement as JsonObject | null;
    const validContent =
      r !== null &&
      typeof r === "object" &&
      "content" in r &&
      (typeof r.content === "string" || Array.isArray(r.content));
    if (r !== null && !validContent) {
      return "Context edit replacement must be null or contain string/array content";
    }
    const target = this.entry(targetId);
    if (!target) return notFound(targetId);
    if (!this.branch().some((e) => e.id === targetId)) {
      return `Entry ${targetId} is not on the active branch`;
    }
    const role = (target.message as JsonObject | undefined)?.role;
    const editable =
      target.type === "custom_message" ||
      (target.type === "message" && ["user", "assistant", "toolResult"].includes(role as string));
    if (!editable) return `Entry ${targetId} does not contribute editable model content`;
    return undefined;
  }

  /** The stored replacement: string content becomes one text block for assistant/toolResult. */
  contextEditReplacement(targetId: string, replacement: unknown): unknown {
    const target = this.entry(targetId) as EntryLike;
    const role = target.type === "message" ? (target.message as JsonObject).role : "custom";
    const r = replacement as { content: unknown } | null;
    if (r !== null && (role === "assistant" || role === "toolResult")) {
      if (typeof r.content === "string") return { content: [{ type: "text", text: r.content }] };
    }
    return replacement;
  }

  /**
   * `createBranchedSession(leafId)` in memory (SPEC §9): the path without label entries,
   * re-chained, compactions that kept from a dropped label pointing at the entry after it,
   * then one label entry per resolved label on a kept entry, in the label map's order, with
   * its original timestamp. `labelIds` are the new label ids the implementation chose.
   */
  branchedEntries(
    leafId: string,
    labelIds: readonly string[],
  ): { kept: EntryLike[]; labels: EntryLike[] } | string {
    const path = this.branch(leafId);
    if (path.length === 0) return notFound(leafId);
    const kept: EntryLike[] = [];
    const followingOf = new Map<string, string>(); // dropped label id → next kept id
    let pending: string[] = [];
    for (const e of path) {
      if (e.type === "label") {
        pending.push(e.id);
        continue;
      }
      for (const labelId of pending) followingOf.set(labelId, e.id);
      pending = [];
      const copy: EntryLike = { ...e, parentId: kept.at(-1)?.id ?? null };
      if (e.type === "compaction" && e.firstKeptEntryId !== e.id) {
        const keep = e.firstKeptEntryId as string;
        copy.firstKeptEntryId = followingOf.get(keep) ?? keep;
      }
      kept.push(copy);
    }
    const keptIds = new Set(kept.map((e) => e.id));
    const labels: EntryLike[] = [];
    for (const [targetId, { label, timestamp }] of this.labels) {
      if (!keptIds.has(targetId)) continue;
      const parentId = labels.at(-1)?.id ?? kept.at(-1)?.id ?? null;
      const id = labelIds[labels.length] ?? `<no label entry ${labels.length}>`;
      labels.push({ type: "label", id, parentId, timestamp, targetId, label });
    }
    return { kept, labels };
  }

  /** Replaces the session by a branched one (ids of the label entries already filled in). */
  adoptBranched(entries: EntryLike[], sessionId: string): void {
    this.entries = entries;
    for (const e of entries) if (!this.knownIds.includes(e.id)) this.knownIds.push(e.id);
    this.leafId = entries.at(-1)?.id ?? null;
    this.sessionId = sessionId;
  }
}
