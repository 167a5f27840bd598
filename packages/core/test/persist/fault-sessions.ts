/**
 * Random valid sessions for the fault-injection property: ops applied to our
 * `SessionManager.create` with a deterministic env, then the file's bytes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { type AgentMessage, createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import fc from "fast-check";

type Json = Record<string, unknown>;

/**
 * The payloads. The faults act on bytes, so what matters is that lines vary: empty, escaped
 * (`\n`, `\r`, tab) and multi-byte text, so a truncation can cut inside an escape or a UTF-8
 * sequence, and messages of every role, block content and null content.
 */
const text: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", "hello", " padded ", "line\nbreak", "é ünï 🙂", "tab\tcr\r"),
  fc.string({ maxLength: 6 }),
);
const block = fc.oneof(
  fc.record({ type: fc.constant("text"), text }),
  fc.record({ type: fc.constant("thinking"), thinking: text }),
  fc.constant({ type: "image", data: "aGVsbG8=", mimeType: "image/png" }),
  fc.constant({ type: "toolCall", id: "call_1", name: "bash", arguments: { cmd: "ls" } }),
);
const ROLES = ["user", "assistant", "toolResult", "bashExecution", "custom", "system", "hologram"];
const message: fc.Arbitrary<Json> = fc.record(
  {
    role: fc.constantFrom(...ROLES),
    content: fc.oneof(text, fc.array(block, { maxLength: 3 }), fc.constant(null)),
    provider: fc.constantFrom("anthropic", "openai"),
    usage: fc.record({ input: fc.nat(999), output: fc.nat(999), totalTokens: fc.nat(9999) }),
    timestamp: fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }),
  },
  { requiredKeys: ["role", "content", "timestamp"] },
);
const data = fc.constantFrom(undefined, null, 0, "s", [1, 2], { a: { b: [true] } });
const label = fc.constantFrom("start", " spaced ", "   ", undefined, "", null);
const sessionName = fc.oneof(fc.constantFrom("name", "  My\r\nSession \n name  ", ""), text);

/** One call that grows a session; targets are indexes into the entries so far. */
export type SessionOp =
  | { op: "user"; text: string }
  | { op: "message"; message: Json }
  | { op: "custom"; data: unknown }
  | { op: "customMessage"; content: string }
  | { op: "label"; pick: number; label: string | null | undefined }
  | { op: "info"; name: string }
  | { op: "branch"; pick: number }
  | { op: "resetLeaf" }
  | { op: "compaction"; pick: number; summary: string }
  | { op: "branchSummary"; pick: number; summary: string }
  | { op: "thinking"; level: string };

const pick = fc.nat(99);
export const sessionOpArb: fc.Arbitrary<SessionOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant("user" as const), text: text }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant("message" as const), message: message }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("custom" as const), data: data }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("customMessage" as const), content: text }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("label" as const), pick, label: label }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("info" as const), name: sessionName }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("branch" as const), pick }) },
  { weight: 1, arbitrary: fc.constant({ op: "resetLeaf" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("compaction" as const), pick, summary: text }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("branchSummary" as const), pick, summary: text }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("thinking" as const), level: fc.constantFrom("high") }),
  },
);

/** A session of tens of entries: a seed for ours ids and clock, and the ops after a first prompt. */
export const sessionArb = fc.record({
  seed: fc.integer({ min: 1, max: 0x7fffffff }),
  ops: fc.array(sessionOpArb, { minLength: 15, maxLength: 50 }),
});

/** A user message. */
export const user = (text: string): AgentMessage =>
  ({ role: "user", content: text, timestamp: 1 }) as AgentMessage;

/**
 * Writes the session with `SessionManager.create` in `dir` (deterministic env) and returns
 * its file and bytes. The bytes are taken to end in `\n` (appended if missing) so that the
 * faults below start from a well-formed file; the missing final `\n` of our appends is a
 * separate bug with its own repro in src-bugs.int.test.ts.
 */
export function writeSession(
  dir: string,
  s: { seed: number; ops: readonly SessionOp[] },
): { file: string; bytes: Buffer } {
  const sm = SessionManager.create("/tmp/fault-proj", dir, {
    env: createDeterministicEnv({ seed: s.seed }),
  });
  sm.appendMessage(user("first prompt"));
  for (const op of s.ops) {
    const ids = sm.getEntries().map((e) => e.id);
    const at = (i: number) => ids[i % ids.length] as string;
    switch (op.op) {
      case "user":
        sm.appendMessage(user(op.text));
        break;
      case "message":
        sm.appendMessage(structuredClone(op.message) as unknown as AgentMessage);
        break;
      case "custom":
        sm.appendCustomEntry("ext", op.data);
        break;
      case "customMessage":
        sm.appendCustomMessageEntry("ext", op.content, true);
        break;
      case "label":
        sm.appendLabelChange(at(op.pick), op.label as string | undefined);
        break;
      case "info":
        sm.appendSessionInfo(op.name);
        break;
      case "branch":
        sm.branch(at(op.pick));
        break;
      case "resetLeaf":
        sm.resetLeaf();
        break;
      case "compaction":
        sm.appendCompaction(op.summary, at(op.pick), 100);
        break;
      case "branchSummary":
        sm.branchWithSummary(at(op.pick), op.summary);
        break;
      case "thinking":
        sm.appendThinkingLevelChange(op.level);
        break;
    }
  }
  const file = sm.getSessionFile() as string;
  sm.close();
  let bytes = readFileSync(file);
  if (bytes.at(-1) !== 0x0a) {
    bytes = Buffer.concat([bytes, Buffer.from("\n")]);
    writeFileSync(file, bytes);
  }
  return { file, bytes };
}
