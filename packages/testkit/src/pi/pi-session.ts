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
import {
  type AssistantMessage,
  type FauxProviderHandle,
  fauxAssistantMessage,
  fauxProvider,
  type Message,
} from "@earendil-works/pi-ai";
import {
  type AgentSession,
  type AgentSessionRuntime,
  createAgentSessionFromServices,
  createAgentSessionRuntime,
  createAgentSessionServices,
  type ExtensionFactory,
  type ExtensionUIContext,
  ModelRuntime,
  SessionManager as PiSessionManager,
  SettingsManager,
} from "@earendil-works/pi-coding-agent";
import { SessionManager as OurSessionManager } from "@pi-sessions/core";
import { type PiManagerSide, usePiSessionManager } from "./manager-switch.js";

/** One `ctx.ui.notify` call of an extension. */
export interface PiNote {
  readonly message: string;
  readonly type: "info" | "warning" | "error" | undefined;
}

/** The model's answer: a message, or text (made into one). */
export type PiReply = (messages: readonly Message[]) => AssistantMessage | string;

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

function textOf(message: Message): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/**
 * The default model: answers every prompt with `Noted: <prompt>`, and the requests pi sends for
 * a compaction or branch summary (the conversation serialised into one message) with a short
 * summary.
 */
export function echoReply(messages: readonly Message[]): AssistantMessage {
  const last = messages[messages.length - 1];
  const text = last ? textOf(last) : "";
  if (text.startsWith("<conversation>") || text.startsWith("# Conversation")) {
    return fauxAssistantMessage("## Goal\nA summary of the conversation so far.");
  }
  return fauxAssistantMessage(`Noted: ${text}`);
}

/** pi's model runtime with only the faux provider (and a key for it) registered. */
async function fauxModelRuntime(agentDir: string, faux: FauxProviderHandle): Promise<ModelRuntime> {
  const modelRuntime = await ModelRuntime.create({
    authPath: join(agentDir, "auth.json"),
    modelsPath: join(agentDir, "models.json"),
    refreshOnCreate: false,
  });
  modelRuntime.registerNativeProvider(faux.provider);
  await modelRuntime.setRuntimeApiKey("faux", "faux-key");
  return modelRuntime;
}

/** A scripted provider that answers every request through `reply`. */
function scriptedFaux(reply: PiReply): FauxProviderHandle {
  const faux = fauxProvider({ api: "faux", models: [{ id: "faux-1" }] });
  const answer = (context: { messages: Message[] }) => {
    const out = reply(context.messages);
    return typeof out === "string" ? fauxAssistantMessage(out) : out;
  };
  // The provider takes a finite script; each step answers one request.
  faux.setResponses(Array.from({ length: 10_000 }, () => answer));
  return faux;
}

/**
 * Starts pi's runtime with `options.extensions` loaded and bound (pi's print mode binding:
 * `session_start` has run). `ctx.ui.notify` calls are collected in `notes`; the UI context is
 * a copy of pi's own no-op one with `notify` replaced. (Not a Proxy: pi copies the context's
 * own properties with `{ ...ui }`, so a Proxy that only answers `get` arrives empty, and an
 * extension fails with "ctx.ui.notify is not a function".)
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
  const faux = scriptedFaux(options.reply ?? echoReply);
  const modelRuntime = await fauxModelRuntime(agentDir, faux);
  const settingsManager = SettingsManager.inMemory({
    compaction: { enabled: false, keepRecentTokens: options.keepRecentTokens ?? 1 },
    retry: { enabled: false },
  });
  const model = faux.getModel("faux-1");
  const persist = options.persist ?? true;
  const cls = (side === "ours" ? OurSessionManager : PiSessionManager) as typeof PiSessionManager;
  const first = persist ? cls.create(cwd, sessionDir) : cls.inMemory(cwd);
  const runtime = await createAgentSessionRuntime(
    async ({ cwd: at, agentDir: agent, sessionManager, sessionStartEvent }) => {
      const services = await createAgentSessionServices({
        cwd: at,
        agentDir: agent,
        settingsManager,
        modelRuntime,
        resourceLoaderOptions: {
          extensionFactories: [...options.extensions],
          noContextFiles: true,
          noSkills: true,
          noPromptTemplates: true,
          noThemes: true,
        },
      });
      const result = await createAgentSessionFromServices({
        services,
        sessionManager,
        sessionStartEvent,
        ...(options.builtinTools ? {} : { noTools: "builtin" as const }),
        ...(model ? { model, thinkingLevel: "off" as const } : {}),
      });
      return { ...result, services, diagnostics: services.diagnostics };
    },
    { cwd, agentDir, sessionManager: first },
  );
  const notes: PiNote[] = [];
  const bind = () => {
    const ui: ExtensionUIContext = runtime.session.extensionRunner.getUIContext();
    const notify = (message: string, type?: "info" | "warning" | "error") => {
      notes.push({ message, type });
    };
    return runtime.session.bindExtensions({ mode: "print", uiContext: { ...ui, notify } });
  };
  runtime.setRebindSession(bind);
  await bind();
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
