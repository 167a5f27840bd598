/**
 * Session fixtures for the `usage`, `export` and screenshot tests: temp session roots, copies
 * of the real corpus files (never the originals: opening a v1 file migrates it), and generated
 * sessions written by the engine itself with branches, a compaction, labels, a name and usage
 * in every place pi records it.
 */
import { chmodSync, copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  type AgentMessage,
  createDeterministicEnv,
  SessionManager,
  type Usage,
} from "@pi-sessions/core";
import {
  assistantMessage,
  CORPUS_DIR,
  tempDir,
  textBlock,
  usageRecord,
  userMessage,
} from "@pi-sessions/test-utils";

// One definition of where the corpus is and what is in it, shared with the other suites.
export { CORPUS } from "./helpers/fixtures.js";

/** A temp sessions root with one project directory in it. */
export interface TempRoot {
  /** The sessions root (`--dir`). */
  readonly root: string;
  /** `<root>/--work-demo--`, where sessions go. */
  readonly project: string;
  /** A scratch directory beside the root (for outputs). */
  readonly scratch: string;
}

/**
 * Creates a {@link TempRoot} in a {@link tempDir}: removed when the test that made it ends, or
 * with the file's tests when made in `beforeAll`.
 */
export function tempRoot(): TempRoot {
  const base = tempDir("pi-sessions-cli-f-");
  const root = join(base, "sessions");
  const project = join(root, "--work-demo--");
  const scratch = join(base, "scratch");
  mkdirSync(project, { recursive: true });
  mkdirSync(scratch);
  return { root, project, scratch };
}

/** Copies a corpus file into `dir` (writable) and returns the copy's path. */
export function copyCorpus(dir: string, name: string): string {
  const target = join(dir, name);
  copyFileSync(join(CORPUS_DIR, name), target);
  chmodSync(target, 0o644);
  return target;
}

/** A usage object whose numbers derive from `n` (so every record differs), at Sonnet prices. */
export function usageOf(n: number): Usage {
  return usageRecord({
    input: 100 * n,
    output: 10 * n,
    cacheRead: 1000 * n,
    cacheWrite: 50 * n,
    cacheWrite1h: n,
    reasoning: 2 * n,
  });
}

/** The fixed time of the generated sessions' messages. */
const MESSAGE_TS = 1_735_700_000_000;

/** A user message. */
export function user(text: string, ts = MESSAGE_TS): AgentMessage {
  return userMessage(text, ts);
}

/** An assistant message with usage. */
export function assistant(
  text: string,
  usage: Usage,
  model = "claude-sonnet-4-5",
  provider = "anthropic",
): AgentMessage {
  return assistantMessage({
    content: [textBlock(text)],
    usage,
    model,
    provider,
    timestamp: MESSAGE_TS,
  });
}

/** Ids of the entries of {@link writeDemoSession} that tests point at. */
export interface DemoSession {
  readonly path: string;
  readonly manager: SessionManager;
  /** The first assistant answer (where the abandoned branch forks off). */
  readonly forkPoint: string;
  /** The leaf of the abandoned branch. */
  readonly abandonedLeaf: string;
  readonly compaction: string;
}

/** Options of {@link writeDemoSession}. */
export interface DemoOptions {
  /**
   * Texts for every user-visible spot (messages, label, name, custom data, tool output), used
   * in turn; an undefined item keeps that spot's default text.
   */
  readonly texts?: readonly (string | undefined)[];
  readonly seed?: number;
  /** Clock step per entry (default five hours, so a session spans several days). */
  readonly stepMs?: number;
}

/**
 * Writes a branched, compacted, labelled and named session into `dir` with the engine, and
 * returns it. Usage sits on assistant messages (two models), a tool result, the branch
 * summary, the compaction and a `usage` entry: every place pi records it.
 */
export function writeDemoSession(dir: string, options: DemoOptions = {}): DemoSession {
  const env = createDeterministicEnv({
    seed: options.seed ?? 7,
    stepMs: options.stepMs ?? 5 * 3_600_000,
  });
  const texts = options.texts ?? [];
  const t = (i: number, fallback: string) => texts[i % Math.max(1, texts.length)] ?? fallback;
  const sm = SessionManager.create("/work/demo", dir, { env });
  sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  sm.appendMessage(user(t(0, "List the files in src.")));
  const forkPoint = sm.appendMessage(assistant(t(1, "There are three modules."), usageOf(1)));
  sm.appendLabelChange(forkPoint, t(2, "layout explained"));
  sm.appendMessage(user(t(3, "Refactor store.ts to stream.")));
  sm.appendMessage({
    role: "toolResult",
    toolCallId: "call_1",
    toolName: "bash",
    content: [{ type: "text", text: t(4, "index.ts\nstore.ts") }],
    usage: usageOf(2),
    isError: false,
    timestamp: MESSAGE_TS,
  });
  const abandonedLeaf = sm.appendMessage(assistant(t(5, "Plan: stream it."), usageOf(3)));
  sm.branchWithSummary(
    forkPoint,
    t(6, "Abandoned: the streaming refactor."),
    undefined,
    false,
    usageOf(4),
  );
  sm.appendModelChange("openai", "gpt-5");
  const kept = sm.appendMessage(user(t(7, "Instead, document the modules.")));
  sm.appendMessage(assistant(t(8, "Wrote docs/modules.md."), usageOf(5), "gpt-5", "openai"));
  sm.appendCustomEntry(t(9, "todo-state"), { note: t(10, "read store.ts") });
  const compaction = sm.appendCompaction(
    t(11, "Docs written; plan agreed."),
    kept,
    5400,
    undefined,
    false,
    usageOf(6),
  );
  sm.appendUsage("cache-warm", "anthropic", "claude-sonnet-4-5", usageOf(7), t(12, "warm-up"));
  sm.appendMessage(user(t(13, "Thanks.")));
  sm.appendMessage(assistant(t(14, "You are welcome."), usageOf(8), "gpt-5", "openai"));
  sm.appendSessionInfo(t(15, "Docs session"));
  const path = sm.getSessionFile();
  if (path === undefined) throw new Error("demo session was not written");
  // Give the writer lock back: the CLI runs in other processes.
  sm.close();
  return { path, manager: sm, forkPoint, abandonedLeaf, compaction };
}
