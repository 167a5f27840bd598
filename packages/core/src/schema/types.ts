/**
 * Static types of the pi session format (SPEC §2–§3), named as the reference names them: record
 * types derived from their io-ts codecs (so type and check cannot drift), then engine views.
 */

import type { SessionEntry } from "./codecs/entries.js";
import type { AgentMessage } from "./codecs/messages.js";

export type * from "./codecs/content-blocks.js";
export type { FileEntry } from "./codecs/decode.js";
export type * from "./codecs/entries.js";
export type * from "./codecs/header.js";
export type * from "./codecs/messages.js";
export type * from "./codecs/usage.js";

/** Options for a new session. */
export interface NewSessionOptions {
  id?: string;
  parentSession?: string;
}

/** A node of {@link SessionManager.getTree}. */
export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

/** The model a context was built for. */
export interface ModelRef {
  provider: string;
  modelId: string;
}

/** What is sent to the model. */
export interface SessionContext {
  messages: AgentMessage[];
  thinkingLevel: string;
  model: ModelRef | null;
}

/** What one context entry contributes after context edits. */
export interface ProjectedSessionEntry {
  sourceEntry: SessionEntry;
  messages: AgentMessage[];
}

/** Provenance-preserving, compaction-aware context (SPEC §8.5): the context with its sources. */
export interface SessionProjection extends SessionContext {
  entries: ProjectedSessionEntry[];
}

/** Summary of one session file, as `list()` returns it. */
export interface SessionInfo {
  path: string;
  id: string;
  cwd: string;
  name?: string;
  parentSessionPath?: string;
  created: Date;
  modified: Date;
  messageCount: number;
  firstMessage: string;
  allMessagesText: string;
}
