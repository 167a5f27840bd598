/**
 * Random valid sessions for the fault-injection property: ops applied to our
 * `SessionManager.create` with a deterministic env, then the file's bytes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { type AgentMessage, createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import fc from "fast-check";
import * as A from "../conformance/arbitraries.js";

type Json = Record<string, unknown>;

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
  { weight: 4, arbitrary: fc.record({ op: fc.constant("user" as const), text: A.text }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant("message" as const), message: A.message }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("custom" as const), data: A.data }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("customMessage" as const), content: A.text }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("label" as const), pick, label: A.label }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("info" as const), name: A.sessionName }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("branch" as const), pick }) },
  { weight: 1, arbitrary: fc.constant({ op: "resetLeaf" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("compaction" as const), pick, summary: A.text }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("branchSummary" as const), pick, summary: A.text }),
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
