/**
 * The one definition of each message role's facts beyond its codec (SPEC §3.3): whether search
 * looks in its text. Typed `satisfies` a record over every role of `MESSAGE_CODECS`, so a new
 * role does not compile until it is decided here. The search index reads {@link SEARCHED_ROLES}
 * to choose what it keeps text for, and the CLI's `search --role` accepts exactly these names,
 * so a filter can never name a role whose text was never indexed (it would match nothing).
 */

import type { AgentMessage } from "./codecs/messages.js";

/** The wire name of a message role the format defines (`message.role`, `MESSAGE_CODECS`' keys). */
export type MessageRole = AgentMessage["role"];

/** The definition of one message role. */
export interface MessageRoleDefinition {
  /**
   * Whether full-text search looks in its text: what people look for in a transcript (what was
   * typed, answered, returned by a tool, or sent by an extension), not summaries the session
   * already holds in other words, shell output echoed elsewhere, or the system prompt.
   */
  readonly searched: boolean;
}

/**
 * Every message role's definition, by wire name. `custom` is also the role search gives a
 * `custom_message` entry, which carries a {@link MessageRole | custom} message's content itself.
 */
export const MESSAGE_ROLES = Object.freeze({
  user: { searched: true },
  assistant: { searched: true },
  toolResult: { searched: true },
  bashExecution: { searched: false },
  custom: { searched: true },
  branchSummary: { searched: false },
  compactionSummary: { searched: false },
  system: { searched: false },
} as const satisfies { readonly [K in MessageRole]: MessageRoleDefinition });

/** The roles whose text search looks in, in {@link MESSAGE_ROLES} order. */
export const SEARCHED_ROLES: readonly MessageRole[] = Object.freeze(
  (Object.keys(MESSAGE_ROLES) as MessageRole[]).filter((role) => MESSAGE_ROLES[role].searched),
);

/** Whether `role` is one whose text search looks in (any other value, unknown roles too: no). */
export function isSearchedRole(role: unknown): role is MessageRole {
  return typeof role === "string" && (SEARCHED_ROLES as readonly string[]).includes(role);
}
