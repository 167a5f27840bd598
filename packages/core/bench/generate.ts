/**
 * Deterministic generators of session files (JSONL text) for the benchmarks.
 *
 * LINEAR: one chain, as a long agent run writes it — user → assistant (text + tool call,
 * with usage) → toolResult → … → assistant (text) → user …, with a thinking-level or model
 * change now and then. BUSHY: the same content, but about every 10th entry hangs off a
 * random earlier entry (a branch), plus labels on random entries and a few session names.
 * Lines are 300–800 bytes, like real transcripts without large tool outputs.
 */

import {
  type AssistantMessageFixture,
  assistantMessage,
  type UsageRecord,
  type UserMessageFixture,
  usageRecord,
  userMessage,
} from "@pi-sessions/test-utils/pi-messages";

/** Shapes of generated sessions. */
export type Shape = "linear" | "bushy";

/** A generated session file. */
export interface GeneratedSession {
  readonly shape: Shape;
  /** Entries after the header. */
  readonly size: number;
  readonly text: string;
  /** Entry ids in file order. */
  readonly ids: readonly string[];
  /** UTF-8 bytes of `text`. */
  readonly bytes: number;
}

/** A seeded PRNG (mulberry32): `next()` in [0, 1). */
export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/** Creates a seeded PRNG. The same seed gives the same stream on every run. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, int, pick };
}

const WORDS = (
  "the session file entry parent leaf branch context model tool call result read write edit " +
  "bash test build error fix function module import export type interface value state append " +
  "compaction summary label token usage cost cache provider request response stream message " +
  "user assistant thinking level change path tree node child root index map array string"
).split(" ");

const FILES = [
  "src/index.ts",
  "src/session-manager.ts",
  "src/state/entry-log.ts",
  "test/tree.test.ts",
];
const TOOLS = ["read", "bash", "edit", "write", "grep"];
const MODELS = [
  { provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages" },
  { provider: "openai", model: "gpt-5", api: "openai-responses" },
  { provider: "google", model: "gemini-2.5-pro", api: "google-generative-ai" },
];
const LEVELS = ["off", "low", "medium", "high"];
const LABELS = ["checkpoint", "good state", "before refactor", "bug here", "todo"];

/** Roughly `chars` characters of prose. */
function prose(rng: Rng, chars: number): string {
  const out: string[] = [];
  let len = 0;
  while (len < chars) {
    const w = rng.pick(WORDS);
    out.push(w);
    len += w.length + 1;
  }
  return `${out.join(" ")}.`;
}

function hex(rng: Rng, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += Math.floor(rng.next() * 16).toString(16);
  return s;
}

/** Token counts of one model call, priced at Sonnet's rates. */
function usage(rng: Rng): UsageRecord {
  return usageRecord({
    input: rng.int(1, 4000),
    output: rng.int(20, 900),
    cacheRead: rng.int(0, 60000),
    cacheWrite: rng.int(0, 3000),
  });
}

/** A user message of 100–450 characters of text. */
function user(rng: Rng, ts: number): UserMessageFixture {
  return userMessage(prose(rng, rng.int(100, 450)), ts);
}

/** An assistant message with usage: text, and a tool call when `withTool`. */
function assistant(
  rng: Rng,
  ts: number,
  model = MODELS[0] as (typeof MODELS)[number],
  withTool = true,
): AssistantMessageFixture<unknown, UsageRecord> {
  const content: unknown[] = [
    { type: "text", text: prose(rng, rng.int(withTool ? 40 : 150, withTool ? 160 : 420)) },
  ];
  if (withTool) {
    content.push({
      type: "toolCall",
      id: `toolu_${hex(rng, 24)}`,
      name: rng.pick(TOOLS),
      arguments: { path: `/work/project/${rng.pick(FILES)}`, offset: rng.int(1, 900) },
    });
  }
  return assistantMessage({
    content,
    api: model.api,
    provider: model.provider,
    model: model.model,
    usage: usage(rng),
    stopReason: withTool ? "toolUse" : "stop",
    timestamp: ts,
  });
}

function toolResult(
  rng: Rng,
  ts: number,
  callId: string,
  toolName: string,
): Record<string, unknown> {
  return {
    role: "toolResult",
    toolCallId: callId,
    toolName,
    content: [{ type: "text", text: prose(rng, rng.int(150, 480)) }],
    isError: rng.next() < 0.05,
    timestamp: ts,
  };
}

/**
 * The lines of a generated session (header first, then `size` entries), without the `\n`,
 * passed to `onLine` one at a time, so a session too big for one string (1M entries, ~640 MB)
 * can be streamed into a file. Returns the entry ids in file order.
 */
export function generateLines(
  shape: Shape,
  size: number,
  onLine: (line: string) => void,
  seed = 1,
): string[] {
  const rng = createRng(seed * 1_000_003 + size);
  let ms = Date.UTC(2025, 5, 1);
  const iso = (): string => new Date(ms).toISOString();
  onLine(
    JSON.stringify({
      type: "session",
      version: 3,
      id: `0197${hex(rng, 4)}-${hex(rng, 4)}-7${hex(rng, 3)}-8${hex(rng, 3)}-${hex(rng, 12)}`,
      timestamp: iso(),
      cwd: "/work/project",
    }),
  );
  const ids: string[] = [];
  const seen = new Set<string>();
  let model = MODELS[0] as (typeof MODELS)[number];
  // Conversation state: 0 user next, 1 assistant next, 2 tool result next.
  let phase = 0;
  let pendingCall: { id: string; name: string } | undefined;

  for (let i = 0; i < size; i++) {
    ms += rng.int(200, 6000);
    let id = hex(rng, 8);
    while (seen.has(id)) id = hex(rng, 8);
    seen.add(id);
    const prev = ids[i - 1] ?? null;
    const parentId =
      shape === "bushy" && i > 1 && rng.next() < 0.1 ? (ids[rng.int(0, i - 1)] as string) : prev;
    const head = { id, parentId, timestamp: iso() };
    const roll = rng.next();
    let entry: Record<string, unknown>;
    if (shape === "bushy" && i === 5) {
      entry = { type: "session_info", ...head, name: "Benchmark session" };
    } else if (shape === "bushy" && i > 0 && roll < 0.02) {
      const label = rng.next() < 0.2 ? undefined : rng.pick(LABELS);
      entry = { type: "label", ...head, targetId: ids[rng.int(0, i - 1)], label };
    } else if (shape === "bushy" && roll < 0.0202) {
      entry = { type: "session_info", ...head, name: prose(rng, 30) };
    } else if (i > 0 && roll > 0.985) {
      entry = { type: "thinking_level_change", ...head, thinkingLevel: rng.pick(LEVELS) };
    } else if (i > 0 && roll > 0.97) {
      model = rng.pick(MODELS);
      entry = { type: "model_change", ...head, provider: model.provider, modelId: model.model };
    } else if (phase === 0) {
      entry = { type: "message", ...head, message: user(rng, ms) };
      phase = 1;
    } else if (phase === 1) {
      const withTool = rng.next() < 0.75;
      const message = assistant(rng, ms, model, withTool);
      const call = (message.content as { type: string; id?: string; name?: string }[])[1];
      pendingCall = call ? { id: call.id as string, name: call.name as string } : undefined;
      entry = { type: "message", ...head, message };
      phase = withTool ? 2 : 0;
    } else {
      const call = pendingCall ?? { id: "toolu_0", name: "read" };
      entry = { type: "message", ...head, message: toolResult(rng, ms, call.id, call.name) };
      phase = 1;
    }
    ids.push(id);
    onLine(JSON.stringify(entry));
  }
  return ids;
}

/**
 * Generates a session of `size` entries (plus the header) in the given shape. Deterministic:
 * the same arguments give the same text.
 */
export function generateSession(shape: Shape, size: number, seed = 1): GeneratedSession {
  const lines: string[] = [];
  const ids = generateLines(shape, size, (line) => lines.push(line), seed);
  const text = `${lines.join("\n")}\n`;
  return { shape, size, text, ids, bytes: Buffer.byteLength(text) };
}

/** A generated session split at its first newline: the header record, and the rest. */
export interface SessionTemplate {
  readonly head: Record<string, unknown>;
  /** The entry lines, starting with the newline that ends the header. */
  readonly body: string;
}

/**
 * 40 generated sessions, linear and bushy in turn, graded from half to 1.5 times `kb` KB. The
 * listing benchmarks write thousands of files from this pool, each with a fresh header (id,
 * time, cwd), so generating 10,000 files costs seconds, not minutes.
 */
export function sessionTemplates(kb: number): SessionTemplate[] {
  const bytesPerEntry = generateSession("bushy", 200, 1).bytes / 200;
  return Array.from({ length: 40 }, (_, k) => {
    const size = Math.max(1, Math.round(((0.5 + k / 40) * kb * 1024) / bytesPerEntry));
    const text = generateSession(k % 2 ? "bushy" : "linear", size, k + 1).text;
    const newline = text.indexOf("\n");
    return {
      head: JSON.parse(text.slice(0, newline)) as Record<string, unknown>,
      body: text.slice(newline),
    };
  });
}

/** Prepared messages for append benchmarks (so generating them is not timed). */
export interface MessagePool {
  readonly users: readonly Record<string, unknown>[];
  readonly assistants: readonly Record<string, unknown>[];
}

/** `n` user and `n` assistant messages (with usage) for appending. */
export function messagePool(n = 64, seed = 7): MessagePool {
  const rng = createRng(seed);
  const ts = Date.UTC(2025, 6, 1);
  const users: Record<string, unknown>[] = [];
  const assistants: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    users.push(user(rng, ts + i * 2));
    assistants.push(assistant(rng, ts + i * 2 + 1, MODELS[0], rng.next() < 0.5));
  }
  return { users, assistants };
}
