import { generateEntryId } from "../env/ids.js";
import { sanitizeSessionName } from "../projections/session-name.js";
import type {
  AgentMessage,
  ContextEditEntry,
  ImageContent,
  SessionEntry,
  TextContent,
  Usage,
  UsageEntry,
} from "../schema/types.js";
import { hasSeenId } from "../state/entry-log.js";
import { foldEntry, withLeaf } from "../state/session-state.js";
import { vecToArray } from "../state/vec.js";
import * as build from "./entry-builders.js";
import { SessionObservable } from "./session-observable.js";
import * as q from "./session-queries.js";
import { systemCheckpoint } from "./system-checkpoint.js";

/** Thrown for an unknown entry id, with the reference's message (SPEC §5.5). */
export class EntryNotFoundError extends Error {
  constructor(readonly entryId: string) {
    super(`Entry ${entryId} not found`);
    this.name = "EntryNotFoundError";
  }
}

const notFound = (id: string): EntryNotFoundError => new EntryNotFoundError(id);

/**
 * The write side of a session: every append and leaf move (SPEC §5, §7.2–§7.4). Each change
 * folds one entry into a new immutable state; `persistEntry` (the file store's hook) runs
 * after the fold, and if it throws the previous state comes back untouched.
 */
export abstract class SessionEditor extends SessionObservable {
  /** Writes one appended entry; the in-memory manager does nothing, the file store writes. */
  protected abstract persistEntry(entry: SessionEntry): void;

  /**
   * Runs first in every public method that writes, before it reads the state: the file store
   * catches up here with entries another manager of this process appended to its file, so
   * checks, parents and leaf moves all see them.
   */
  protected catchUp(): void {}

  /**
   * Whether an id was ever used in the current state. One function for the manager's life,
   * reading the state when called, so that drawing an id allocates no predicate per append.
   */
  private readonly idTaken = (id: string): boolean => hasSeenId(this.state.log, id);

  /** A fresh id that was never used in this session (shadowed duplicates included). */
  protected newEntryId(): string {
    return generateEntryId(this.env, this.idTaken);
  }

  /**
   * The common append (SPEC §5.1): build the entry as a child of the leaf, store the JSON
   * value of its line, fold it, persist it; if persisting throws, the previous state is
   * restored untouched and the error rethrown. `arg` is passed on to `make`, so a builder of
   * one argument needs no closure (the hot appends: messages).
   */
  protected appendEntry<T extends SessionEntry, A = undefined>(
    make: (b: build.EntryBase, arg: A) => T,
    moved?: { readonly from: string | null },
    arg?: A,
  ): T {
    const base = {
      id: this.newEntryId(),
      parentId: this.state.leafId,
      timestamp: this.env.now().toISOString(),
    };
    const stored = build.storedForm(make(base, arg as A));
    // Guards see the exact value that would be stored, and refuse before anything changes.
    this.validateEntry(stored);
    const before = this.state;
    this.state = foldEntry(before, stored);
    try {
      this.persistEntry(stored);
    } catch (error) {
      this.state = before;
      throw error;
    }
    // Committed: only now may handlers see it (a leaf move made for this append first).
    if (moved) this.emitLeafMoved(moved.from, base.parentId);
    this.emitAppended(stored);
    return stored;
  }

  /** Appends a message of any role; returns the entry id. */
  appendMessage(message: AgentMessage): string {
    this.catchUp();
    return this.appendEntry(build.messageEntry, undefined, message).id;
  }
  /** Appends a thinking level change. */
  appendThinkingLevelChange(thinkingLevel: string): string {
    this.catchUp();
    return this.appendEntry(build.thinkingLevelEntry, undefined, thinkingLevel).id;
  }
  /** Appends a model change. */
  appendModelChange(provider: string, modelId: string): string {
    this.catchUp();
    return this.appendEntry((b) => build.modelChangeEntry(b, provider, modelId)).id;
  }
  /** [R1.6] Appends model usage outside the conversation; returns the whole entry. */
  appendUsage(
    kind: string,
    provider: string,
    model: string,
    usage: Usage,
    note?: string,
  ): UsageEntry {
    this.catchUp();
    return this.appendEntry((b) => build.usageEntry(b, kind, provider, model, usage, note));
  }
  /**
   * Appends a compaction. A null/undefined `firstKeptEntryId` means "keep none" (the entry's
   * own id). Records the system-prompt checkpoint when the context has system messages.
   */
  appendCompaction<T = unknown>(
    summary: string,
    firstKeptEntryId: string | null,
    tokensBefore: number,
    details?: T,
    fromHook?: boolean,
    usage?: Usage,
  ): string {
    this.catchUp();
    // Only the context's system messages matter to the checkpoint; the summary keeps them.
    const systemMessages = vecToArray(q.leafSummary(this.state).systemMessages);
    return this.appendEntry((b) =>
      build.compactionEntry(b, {
        summary,
        firstKeptEntryId: firstKeptEntryId ?? b.id,
        tokensBefore,
        details,
        usage,
        fromHook,
        systemMessage: systemCheckpoint(systemMessages, new Date(b.timestamp).getTime()),
      }),
    ).id;
  }
  /** Appends extension state that never reaches the model. */
  appendCustomEntry(customType: string, data?: unknown): string {
    this.catchUp();
    return this.appendEntry((b) => build.customEntry(b, customType, data)).id;
  }
  /** Appends the session name (CR/LF runs become a space, then trimmed). */
  appendSessionInfo(name: string): string {
    this.catchUp();
    return this.appendEntry(build.sessionInfoEntry, undefined, sanitizeSessionName(name)).id;
  }
  /** Appends extension content that reaches the model. */
  appendCustomMessageEntry<T = unknown>(
    customType: string,
    content: string | (TextContent | ImageContent)[],
    display: boolean,
    details?: T,
  ): string {
    this.catchUp();
    return this.appendEntry((b) =>
      build.customMessageEntry(b, customType, content, display, details),
    ).id;
  }
  /** Sets (truthy) or clears (undefined, "", null) the label of an existing entry. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    this.catchUp();
    if (!q.entryOf(this.state, targetId)) throw notFound(targetId);
    return this.appendEntry((b) => build.labelEntry(b, targetId, label)).id;
  }
  /** [R1.6] Appends a branch-local edit of an earlier entry's context contribution (SPEC §5.4). */
  appendContextEdit(targetId: string, replacement: ContextEditEntry["replacement"]): string {
    this.catchUp();
    const content = (replacement as { content?: unknown } | null)?.content;
    if (
      replacement !== null &&
      (typeof replacement !== "object" || (typeof content !== "string" && !Array.isArray(content)))
    ) {
      throw new Error("Context edit replacement must be null or contain string/array content");
    }
    const target = q.entryOf(this.state, targetId);
    if (!target) throw notFound(targetId);
    if (!q.branchOf(this.state).some((e) => e.id === targetId)) {
      throw new Error(`Entry ${targetId} is not on the active branch`);
    }
    const role = target.type === "message" ? target.message?.role : undefined;
    const editable =
      target.type === "custom_message" ||
      role === "user" ||
      role === "assistant" ||
      role === "toolResult";
    if (!editable) throw new Error(`Entry ${targetId} does not contribute editable model content`);
    let stored = replacement;
    if (
      replacement &&
      typeof content === "string" &&
      (role === "assistant" || role === "toolResult")
    ) {
      // As the reference: the wrapped form replaces the argument whole (extra keys dropped).
      stored = { content: [{ type: "text", text: content }] };
    }
    return this.appendEntry((b) => build.contextEditEntry(b, targetId, stored)).id;
  }

  // --- moving the leaf ------------------------------------------------------------------

  /** Moves the leaf to an existing entry. Writes nothing. */
  branch(branchFromId: string): void {
    if (!q.entryOf(this.state, branchFromId)) throw notFound(branchFromId);
    const from = this.state.leafId;
    this.state = withLeaf(this.state, branchFromId);
    this.emitLeafMoved(from, branchFromId);
  }
  /** Moves the leaf before the first entry; the next append starts a new root. */
  resetLeaf(): void {
    const from = this.state.leafId;
    this.state = withLeaf(this.state, null);
    this.emitLeafMoved(from, null);
  }
  /**
   * Moves the leaf to `branchFromId` (null: a new root) and appends a summary of the path
   * left behind. If the append fails, the leaf is back where it was before the call (W19).
   */
  branchWithSummary(
    branchFromId: string | null,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
    usage?: Usage,
  ): string {
    this.catchUp();
    if (branchFromId !== null && !q.entryOf(this.state, branchFromId)) throw notFound(branchFromId);
    const before = this.state;
    const fromId = before.leafId ?? "root";
    this.state = withLeaf(before, branchFromId);
    try {
      return this.appendEntry(
        (b) => build.branchSummaryEntry(b, fromId, summary, details, usage, fromHook),
        { from: before.leafId },
      ).id;
    } catch (error) {
      this.state = before;
      throw error;
    }
  }
}
