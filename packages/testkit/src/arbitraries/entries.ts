/**
 * Single entries of a chosen type, with valid references: each is the last entry of a short
 * linear log whose first entry is a user message, so a label, compaction or context edit
 * always has something on its branch to point at.
 */
import type { SessionEntry, SessionEntryType } from "@pi-sessions/core";
import fc from "fast-check";
import { type IdStyle, msArb } from "./common.js";
import { type BodyOptions, bodySpecArb, ENTRY_KINDS, type EntryKind } from "./entry-specs.js";
import { userMessageArb } from "./messages.js";
import { buildLogEntries, type LogStep, logStepArb } from "./session-log.js";

/** Options of {@link sessionEntryArb}. */
export interface EntryOptions extends BodyOptions {
  /** Entry types to choose from (default: every built-in type). */
  kinds?: readonly EntryKind[];
  /** How ids are spelled (default `"hex8"`). */
  ids?: IdStyle;
}

/** An entry of one of `options.kinds`, with its references resolved. */
export function sessionEntryArb(options: EntryOptions = {}): fc.Arbitrary<SessionEntry> {
  const first: fc.Arbitrary<LogStep> = userMessageArb(options).map((message) => ({
    parent: "leaf",
    delta: 0,
    body: { kind: "message", message },
  }));
  const middle = logStepArb({ ...options, shape: "linear" });
  const last = bodySpecArb(options.kinds ?? ENTRY_KINDS, options).map(
    (body): LogStep => ({ parent: "leaf", delta: 1, body }),
  );
  return fc
    .tuple(msArb, fc.nat(), first, fc.array(middle, { maxLength: 3 }), last)
    .map(([start, salt, head, rest, tail]) => {
      const entries = buildLogEntries([head, ...rest, tail], start, salt, options.ids);
      return entries[entries.length - 1] as SessionEntry;
    });
}

/** An entry of exactly this built-in type (`"unknown"`: a type core does not know). */
export function entryOfTypeArb(
  type: SessionEntryType | "unknown",
  options: BodyOptions = {},
): fc.Arbitrary<SessionEntry> {
  return sessionEntryArb({ ...options, kinds: [type] });
}
