/**
 * pi's SDK for tests of extensions: `createAgentSessionRuntime` with services per cwd, the
 * given extension factories, in-memory settings, no tools, and pi-ai's faux provider as the
 * model (it answers every prompt with "Noted: <prompt>" and every summary request with a short
 * summary). The runtime is bound as pi's print mode binds it, so extensions get
 * `session_start` on the first session and again after every new, resume and fork.
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
  type AgentSession,
  type AgentSessionRuntime,
  createAgentSessionFromServices,
  createAgentSessionRuntime,
  createAgentSessionServices,
  type ExtensionFactory,
  ModelRuntime,
  type SessionManager,
  SettingsManager,
} from "@earendil-works/pi-coding-agent";

function textOf(message: Message): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** The faux model's answer to a request, from its last message. */
export function fauxReply(messages: readonly Message[]): AssistantMessage {
  const last = messages[messages.length - 1];
  const text = last ? textOf(last) : "";
  // Compaction and branch summaries send the serialised conversation as one user message.
  if (text.startsWith("<conversation>") || text.startsWith("# Conversation")) {
    return fauxAssistantMessage("## Goal\nA summary of the conversation so far.");
  }
  return fauxAssistantMessage(`Noted: ${text}`);
}

/** A running pi SDK: the runtime, the faux model, and shortcuts to its current session. */
export interface PiSdk {
  readonly runtime: AgentSessionRuntime;
  readonly faux: FauxProviderHandle;
  /** The current session (it changes on new, resume and fork). */
  session(): AgentSession;
  /** Sends a prompt (or an extension `/command`) and waits until pi has answered. */
  prompt(text: string): Promise<void>;
  /** Disposes of the runtime. */
  dispose(): Promise<void>;
}

/** Options of {@link createPiSdk}. */
export interface PiSdkOptions {
  /** The working directory (tools and session paths). */
  readonly cwd: string;
  /** `PI_CODING_AGENT_DIR`: auth and models files live there. */
  readonly agentDir: string;
  /** The first session's manager (e.g. `SessionManager.create(cwd, dir)`). */
  readonly sessionManager: SessionManager;
  /** The extensions under test. */
  readonly extensions: readonly ExtensionFactory[];
  /**
   * Receives the extensions' `ctx.ui.notify` calls (print mode drops them): pi's own no-op UI
   * context with `notify` bound to this, as an RPC client binds its UI.
   */
  readonly notify?: (message: string, type?: "info" | "warning" | "error") => void;
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

/**
 * In-memory settings with automatic compaction and retries off (tests compact by hand, and no
 * request repeats). The tiny keepRecentTokens makes a manual compaction cut inside the last
 * turn, so it summarises the history and that turn's prefix (split-turn details).
 */
export function testSettings(): SettingsManager {
  return SettingsManager.inMemory({
    compaction: { enabled: false, keepRecentTokens: 1 },
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

/** Starts pi's SDK over the faux model with the given extensions (see the module comment). */
export async function createPiSdk(options: PiSdkOptions): Promise<PiSdk> {
  const faux = fauxProvider({ api: "faux", models: [{ id: "faux-1" }] });
  faux.setResponses(
    Array.from(
      { length: 500 },
      () => (context: { messages: Message[] }) => fauxReply(context.messages),
    ),
  );
  const modelRuntime = await fauxModelRuntime(options.agentDir, faux);
  const settingsManager = testSettings();
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
        tools: [],
        ...(model ? { model, thinkingLevel: "off" as const } : {}),
      });
      return { ...result, services, diagnostics: services.diagnostics };
    },
    { cwd: options.cwd, agentDir: options.agentDir, sessionManager: options.sessionManager },
  );
  const notify = options.notify;
  const bind = () => {
    const ui = runtime.session.extensionRunner.getUIContext();
    return runtime.session.bindExtensions({
      mode: "print",
      ...(notify ? { uiContext: { ...ui, notify } } : {}),
    });
  };
  runtime.setRebindSession(bind);
  await bind();
  return {
    runtime,
    faux,
    session: () => runtime.session,
    prompt: (text) => runtime.session.prompt(text),
    dispose: () => runtime.dispose(),
  };
}
