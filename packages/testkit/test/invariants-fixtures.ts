/**
 * Hand-written fixtures of the invariant tests: SPEC §8.7 example B plus a label and a session
 * name (11 entries), the same file with a garbage line, a small v1 file, and a wrapper that
 * breaks one method of a real manager at a time.
 */
import type { SessionManager } from "@pi-sessions/core";
import type { AppendableSession } from "../src/internal.js";

const USAGE = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const at = (s: number) => `2025-01-01T10:00:${String(s).padStart(2, "0")}.000Z`;
/** An entry with the common fields first, then the type's own `fields`. */
const entry = (
  type: string,
  id: string,
  parentId: string | null,
  s: number,
  fields: Record<string, unknown>,
) => ({ type, id, parentId, timestamp: at(s), ...fields });
const user = (id: string, parentId: string | null, s: number, text: string) => ({
  type: "message",
  id,
  parentId,
  timestamp: at(s),
  message: { role: "user", content: text, timestamp: Date.parse(at(s)) },
});
const assistant = (id: string, parentId: string, s: number, text: string) => ({
  type: "message",
  id,
  parentId,
  timestamp: at(s),
  message: {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-x",
    usage: USAGE,
    stopReason: "stop",
    timestamp: Date.parse(at(s)),
  },
});

const HEADER = {
  type: "session",
  version: 3,
  id: "fixture",
  timestamp: at(0),
  cwd: "/tmp/fixture",
};

/** The records of the fixture, header first. */
export const FIXTURE_RECORDS: readonly Record<string, unknown>[] = [
  HEADER,
  user("u1", null, 0, "q1"),
  assistant("a1", "u1", 1, "r1"),
  user("u2", "a1", 2, "q2"),
  assistant("a2", "u2", 3, "r2"),
  entry("compaction", "k1", "a2", 4, { summary: "S1", firstKeptEntryId: "u2", tokensBefore: 500 }),
  user("u3", "k1", 5, "q3"),
  user("x1", "u2", 6, "side"),
  entry("branch_summary", "b1", "a1", 7, { fromId: "x1", summary: "Tried a side path" }),
  user("u4", "b1", 8, "q4"),
  { type: "label", id: "l1", parentId: "u4", timestamp: at(9), targetId: "u1", label: "start" },
  { type: "session_info", id: "s1", parentId: "l1", timestamp: at(10), name: "Example" },
];

/** The fixture as a file. */
export const FIXTURE = FIXTURE_RECORDS.map((r) => `${JSON.stringify(r)}\n`).join("");

/** The fixture with `garbage line` as line 3. */
export const GARBAGE_FIXTURE = FIXTURE.split("\n")
  .flatMap((l, i) => (i === 2 ? ["garbage line", l] : [l]))
  .join("\n");

/** A version 1 file's records: no ids, a compaction keeping record 1. */
export const LEGACY_V1: readonly Record<string, unknown>[] = [
  { type: "session", id: "legacy", timestamp: at(0), cwd: "/tmp/legacy" },
  { type: "message", timestamp: at(1), message: { role: "user", content: "q1", timestamp: 1 } },
  { type: "compaction", timestamp: at(2), summary: "S", firstKeptEntryIndex: 1, tokensBefore: 9 },
  { type: "message", timestamp: at(3), message: { role: "user", content: "q2", timestamp: 3 } },
];

/** A real manager's API with some methods replaced (to break one promise at a time). */
export function wrap(sm: SessionManager, overrides: Partial<AppendableSession>): AppendableSession {
  const base: AppendableSession = {
    getHeader: () => sm.getHeader(),
    getEntries: () => sm.getEntries(),
    getEntry: (id) => sm.getEntry(id),
    getLeafId: () => sm.getLeafId(),
    getBranch: (id) => sm.getBranch(id),
    getTree: () => sm.getTree(),
    getLabel: (id) => sm.getLabel(id),
    getSessionName: () => sm.getSessionName(),
    buildContextEntries: () => sm.buildContextEntries(),
    buildSessionContext: () => sm.buildSessionContext(),
    getLoadDiagnostics: () => sm.getLoadDiagnostics(),
    appendMessage: (m) => sm.appendMessage(m),
  };
  return { ...base, ...overrides };
}
