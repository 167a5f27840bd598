/**
 * `startPiSession`: pi's SDK as an extension test needs it — pi's own runtime
 * (`createAgentSessionRuntime`, so new, resume, fork and reload create runtimes and call the
 * extension factories as the `pi` command does), pi-ai's scripted `faux` model, in-memory
 * settings, nothing discovered from `~/.pi` or the project, and every file in a temp folder.
 * Over pi's SessionManager or ours (`manager: "ours"`, with `@pi-sessions/testkit/pi-hook`).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FauxProviderHandle } from "@earendil-works/pi-ai";
import {
  type AgentSession,
  type AgentSessionRuntime,
  type ExtensionFactory,
  SessionManager as PiSessionManager,
} from "@earendil-works/pi-coding-agent";
import { SessionManager as OurSessionManager } from "@pi-sessions/core";
import { type PiManagerSide, usePiSessionManager } from "./manager-switch.js";
import { createPiRuntime, echoReply, type PiReply } from "./pi-runtime.js";

export { echoReply, type PiReply } from "./pi-runtime.js";

/** One `ctx.ui.notify` call of an extension. */
export interface PiNote {
  readonly message: string;
  readonly type: "info" | "warning" | "error" | undefined;
}

/** Options of {@link startPiSession}. */
export interface PiSessionOptions {
  /** The extensions under test, as pi loads them (factories). */
  readonly extensions: readonly ExtensionFactory[];
  /** The SessionManager class pi's runtime uses (default "pi"; "ours" needs the hook). */
  readonly manager?: PiManagerSide;
  /** A folder for everything (default a fresh temp folder, removed by `dispose()`). */
  readonly dir?: string;
  /** Session files in `<dir>/sessions` (default true); false keeps sessions in memory. */
  readonly persist?: boolean;
  /** The scripted model (default {@link echoReply}). */
  readonly reply?: PiReply;
  /**
   * Let the model use pi's built-in tools (read, bash, edit, write; default false). Tools your
   * extensions register are always active: the runtime is created with `noTools: "builtin"`,
   * not `tools: []`, which would disable extension tools too.
   */
  readonly builtinTools?: boolean;
  /**
   * pi's `compaction.keepRecentTokens` (default 1). pi's own default (20,000) keeps a small
   * test conversation whole, so `session.compact()` finds nothing to summarise and throws.
   */
  readonly keepRecentTokens?: number;
}

/** A running pi with the extensions loaded; see {@link startPiSession}. */
export interface PiTestSession {
  /** pi's runtime (`switchSession`, `newSession`, `fork`, …). */
  readonly runtime: AgentSessionRuntime;
  /** pi-ai's scripted provider behind the model. */
  readonly faux: FauxProviderHandle;
  /** The folder everything lives in; `cwd`, `agentDir` and `sessionDir` are inside it. */
  readonly dir: string;
  readonly cwd: string;
  readonly agentDir: string;
  readonly sessionDir: string;
  /** Every `ctx.ui.notify` of the extensions, oldest first. */
  readonly notes: readonly PiNote[];
  /** The current session (it changes on new, resume, fork and reload). */
  session(): AgentSession;
  /** The current session's SessionManager (pi's or ours). */
  manager(): AgentSession["sessionManager"];
  /** Sends a prompt or an extension `/command` and waits until pi is done with it. */
  prompt(text: string): Promise<void>;
  /** Disposes of pi's runtime and removes the folder if this call made it. */
  dispose(): Promise<void>;
}

/**
 * Starts pi's runtime with `options.extensions` loaded and bound (pi's print mode binding:
 * `session_start` has run). `ctx.ui.notify` calls are collected in `notes`. The first session is
 * `SessionManager.create(cwd, sessionDir)` (or `inMemory(cwd)`) of the chosen class; pi's
 * runtime makes the later ones (new, resume, fork) with the class the hook switched it to.
 */
export async function startPiSession(options: PiSessionOptions): Promise<PiTestSession> {
  const side = options.manager ?? "pi";
  usePiSessionManager(side);
  const made = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "pi-test-"));
  const cwd = join(dir, "work");
  const agentDir = join(dir, "agent");
  const sessionDir = join(dir, "sessions");
  for (const d of [cwd, agentDir]) mkdirSync(d, { recursive: true });
  const cls = (side === "ours" ? OurSessionManager : PiSessionManager) as typeof PiSessionManager;
  const notes: PiNote[] = [];
  const { runtime, faux } = await createPiRuntime({
    cwd,
    agentDir,
    sessionManager: (options.persist ?? true) ? cls.create(cwd, sessionDir) : cls.inMemory(cwd),
    extensions: options.extensions,
    reply: options.reply ?? echoReply,
    builtinTools: options.builtinTools ?? false,
    keepRecentTokens: options.keepRecentTokens ?? 1,
    notify: (message, type) => void notes.push({ message, type }),
  });
  return {
    runtime,
    faux,
    dir,
    cwd,
    agentDir,
    sessionDir,
    notes,
    session: () => runtime.session,
    manager: () => runtime.session.sessionManager,
    prompt: (text) => runtime.session.prompt(text),
    async dispose() {
      await runtime.dispose();
      if (made) rmSync(dir, { recursive: true, force: true });
    },
  };
}
