/**
 * The parts of a pi runtime for tests: pi-ai's scripted `faux` model, in-memory settings,
 * services that discover nothing from disk, and the runtime itself bound as pi's print mode
 * binds it (so extensions get `session_start` on the first session and after every new,
 * resume, fork and reload). {@link startPiSession} is the public entry; this repository's own
 * tests also build on these parts with managers of their choosing.
 */
import { join } from "node:path";
import {
  type AssistantMessage,
  type FauxProviderHandle,
  fauxAssistantMessage,
  fauxProvider,
  type Message,
} from "@earendil-works/pi-ai";
import {
  type AgentSessionRuntime,
  createAgentSessionFromServices,
  createAgentSessionRuntime,
  createAgentSessionServices,
  type ExtensionFactory,
  type ExtensionUIContext,
  ModelRuntime,
  type SessionManager,
  SettingsManager,
} from "@earendil-works/pi-coding-agent";

/** The model's answer: a message, or text (made into one). */
export type PiReply = (messages: readonly Message[]) => AssistantMessage | string;

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
export async function fauxModelRuntime(
  agentDir: string,
  faux: FauxProviderHandle,
): Promise<ModelRuntime> {
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
export function scriptedFaux(reply: PiReply): FauxProviderHandle {
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
 * In-memory settings with automatic compaction and retries off (tests compact by hand, and no
 * request repeats). A small `keepRecentTokens` makes a manual compaction cut inside the last
 * turn: pi's default (20,000) keeps a short test conversation whole, and `compact()` throws.
 */
export function testSettings(keepRecentTokens = 1): SettingsManager {
  return SettingsManager.inMemory({
    compaction: { enabled: false, keepRecentTokens },
    retry: { enabled: false },
  });
}

/** pi's services for one cwd: the given extensions, and nothing discovered from disk. */
export function testServices(
  base: Pick<
    Parameters<typeof createAgentSessionServices>[0],
    "cwd" | "agentDir" | "settingsManager" | "modelRuntime"
  >,
  extensions: readonly ExtensionFactory[],
): ReturnType<typeof createAgentSessionServices> {
  return createAgentSessionServices({
    ...base,
    resourceLoaderOptions: {
      extensionFactories: [...extensions],
      noContextFiles: true,
      noSkills: true,
      noPromptTemplates: true,
      noThemes: true,
    },
  });
}

/** What {@link createPiRuntime} needs. */
export interface PiRuntimeOptions {
  readonly cwd: string;
  /** `PI_CODING_AGENT_DIR`: auth and models files live there. */
  readonly agentDir: string;
  /** The first session's manager (pi's runtime makes the later ones with its own class). */
  readonly sessionManager: SessionManager;
  readonly extensions: readonly ExtensionFactory[];
  readonly reply: PiReply;
  /** Keep pi's built-in tools (read, bash, edit, write) active; extension tools always are. */
  readonly builtinTools: boolean;
  readonly keepRecentTokens: number;
  /** Receives the extensions' `ctx.ui.notify` calls. */
  readonly notify: (message: string, type?: "info" | "warning" | "error") => void;
}

/**
 * pi's runtime over the faux model, bound with pi's no-op UI context copied and `notify`
 * replaced. (A copy, not a Proxy: pi copies the context's own properties with `{ ...ui }`, so a
 * Proxy that only answers `get` arrives empty and `ctx.ui.notify` is "not a function".) Built-in
 * tools are switched off with `noTools: "builtin"`, not `tools: []`, which would switch off the
 * extensions' tools too.
 */
export async function createPiRuntime(
  options: PiRuntimeOptions,
): Promise<{ runtime: AgentSessionRuntime; faux: FauxProviderHandle }> {
  const faux = scriptedFaux(options.reply);
  const modelRuntime = await fauxModelRuntime(options.agentDir, faux);
  const settingsManager = testSettings(options.keepRecentTokens);
  const model = faux.getModel("faux-1");
  const runtime = await createAgentSessionRuntime(
    async ({ cwd, agentDir, sessionManager, sessionStartEvent }) => {
      const services = await testServices(
        { cwd, agentDir, settingsManager, modelRuntime },
        options.extensions,
      );
      const result = await createAgentSessionFromServices({
        services,
        sessionManager,
        sessionStartEvent,
        ...(options.builtinTools ? {} : { noTools: "builtin" as const }),
        ...(model ? { model, thinkingLevel: "off" as const } : {}),
      });
      return { ...result, services, diagnostics: services.diagnostics };
    },
    { cwd: options.cwd, agentDir: options.agentDir, sessionManager: options.sessionManager },
  );
  const bind = () => {
    const ui: ExtensionUIContext = runtime.session.extensionRunner.getUIContext();
    return runtime.session.bindExtensions({
      mode: "print",
      uiContext: { ...ui, notify: options.notify },
    });
  };
  runtime.setRebindSession(bind);
  await bind();
  return { runtime, faux };
}
