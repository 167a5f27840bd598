/**
 * The saved state of core's two listing folds (the file's `SessionInfo` and its shape), so
 * that a grown file is folded on from where the last run stopped instead of from its first
 * line. The folds are core's own: the index never decides what a record means.
 */

import type { SessionHeader } from "@pi-sessions/core";
import {
  SessionInfoFold,
  type SessionShape,
  SessionShapeFold,
  type ShapeIrregularity,
} from "@pi-sessions/core/internal";

/** The JSON kept in `files.state` (the info's joined text is a column of its own). */
export interface FoldState {
  readonly info: {
    readonly header: SessionHeader | null;
    readonly messageCount: number;
    readonly lastActivity: number;
    readonly firstMessage?: string;
    /** The last `session_info` name as written (absent: none, or one without a name). */
    readonly rawName?: unknown;
  };
  readonly shape: {
    readonly headerSeen: boolean;
    readonly irregularity?: ShapeIrregularity;
    readonly entries: number;
    /** How many distinct parent ids the shape had seen. */
    readonly parents: number;
  };
}

/** The state of a file nothing of which is indexed yet. */
export const EMPTY_STATE: FoldState = {
  info: { header: null, messageCount: 0, lastActivity: 0 },
  shape: { headerSeen: false, entries: 0, parents: 0 },
};

/** Asks the index whether an already indexed record has this id (or names it as parent). */
export interface StoredIds {
  hasId(id: string): boolean;
  hasParent(id: string): boolean;
}

/**
 * A set whose older members live in the index: the shape fold asks whether an id was seen
 * before, and loading every id of a huge session to answer for a few new lines would cost what
 * the index is there to save. New members are kept in memory; `size` adds the stored count.
 */
class StoredIdSet extends Set<string> {
  constructor(
    private readonly stored: (id: string) => boolean,
    private readonly storedCount: number,
  ) {
    super();
  }

  override has(id: string): boolean {
    return super.has(id) || this.stored(id);
  }

  override add(id: string): this {
    if (!this.stored(id)) super.add(id);
    return this;
  }

  override get size(): number {
    return super.size + this.storedCount;
  }
}

/** Core's folds, resumed at a saved state. */
export interface Folds {
  readonly info: SessionInfoFold;
  readonly shape: SessionShapeFold;
}

/**
 * The folds at `state`; `text` is the info's joined message text so far (leave it `""` when
 * the caller does not want the text: the info then carries only the text of unsaved lines).
 */
export function resumeFolds(state: FoldState, text: string, ids: StoredIds): Folds {
  const info = new SessionInfoFold();
  info.header = state.info.header;
  info.messageCount = state.info.messageCount;
  info.lastActivity = state.info.lastActivity;
  info.firstMessage = state.info.firstMessage;
  info.rawName = state.info.rawName;
  if (text !== "") info.texts.push(text); // joined again with one space, as the fold joins
  const shape = new SessionShapeFold(info);
  shape.headerSeen = state.shape.headerSeen;
  shape.irregularity = state.shape.irregularity;
  shape.entries = state.shape.entries;
  // A file folded from its start has nothing stored to ask about.
  if (state.shape.entries === 0 && state.shape.parents === 0) return { info, shape };
  Object.assign(shape, {
    ids: new StoredIdSet((id) => ids.hasId(id), state.shape.entries),
    parents: new StoredIdSet((id) => ids.hasParent(id), state.shape.parents),
  });
  return { info, shape };
}

/** The state the folds are in now (to save once the lines they saw are committed). */
export function foldState({ info, shape }: Folds): FoldState {
  const infoState: FoldState["info"] = {
    header: info.header,
    messageCount: info.messageCount,
    lastActivity: info.lastActivity,
    ...(info.firstMessage === undefined ? {} : { firstMessage: info.firstMessage }),
    ...(info.rawName === undefined ? {} : { rawName: info.rawName }),
  };
  const shapeState: FoldState["shape"] = {
    headerSeen: shape.headerSeen,
    ...(shape.irregularity === undefined ? {} : { irregularity: shape.irregularity }),
    entries: shape.entries,
    parents: shape.parents.size,
  };
  return { info: infoState, shape: shapeState };
}

/** The joined message text the info fold holds. */
export function foldText(folds: Folds): string {
  return folds.info.texts.join(" ");
}

export type { SessionShape };
