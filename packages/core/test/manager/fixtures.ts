import {
  type AssistantMessage,
  createDeterministicEnv,
  type FileEntry,
  SessionManager,
  type Usage,
} from "@pi-sessions/core";

/** A complete Usage object with small numbers. */
export const U: Usage = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
};

/** A user message with string content. */
export const user = (text: string, timestamp = 1) => ({
  role: "user" as const,
  content: text,
  timestamp,
});

/** An assistant message from `provider/model`. */
export const assistant = (
  text: string,
  provider = "anthropic",
  model = "claude-x",
  timestamp = 2,
): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider,
  model,
  usage: U,
  stopReason: "stop",
  timestamp,
});

/** A fresh in-memory manager with reproducible ids and a clock stepping 1 s per read. */
export function fresh(seed = 1): SessionManager {
  return SessionManager.inMemory("/tmp/proj", {
    env: createDeterministicEnv({ seed, stepMs: 1000 }),
  });
}

/** Parses JSONL lines (test fixtures) into records. */
export function records(lines: string): FileEntry[] {
  return lines
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as FileEntry);
}

/** A header record for fixtures. */
export const HEADER =
  '{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T10:00:00.000Z","cwd":"/tmp/proj"}';

/** Loads fixture lines (header prepended) into an in-memory manager. */
export function load(lines: string): SessionManager {
  return SessionManager.inMemory("/tmp/proj", undefined, records(`${HEADER}\n${lines.trim()}`));
}

/** Reloads a manager's header and entries into a new one (the in-memory "reopen"). */
export function reload(sm: SessionManager): SessionManager {
  const header = sm.getHeader();
  return SessionManager.inMemory("/tmp/proj", undefined, [
    ...(header ? [header] : []),
    ...sm.getEntries(),
  ]);
}
