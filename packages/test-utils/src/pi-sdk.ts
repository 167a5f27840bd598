/**
 * pi's SDK for this repository's extension tests, on the testkit's runtime parts
 * (`@pi-sessions/testkit/pi`, imported from source: the testkit's own tests use this package,
 * so a package dependency would be a cycle). The faux model answers every prompt with
 * "Noted: <prompt>" and every summary request with a short summary; the runtime is bound as
 * pi's print mode binds it. Which SessionManager class pi's runtime uses is decided by the
 * vitest module swap (vitest.pi-switch.ts), not by the testkit's hook.
 */
import type { FauxProviderHandle } from "@earendil-works/pi-ai";
import type {
  AgentSession,
  AgentSessionRuntime,
  ExtensionFactory,
  SessionManager,
} from "@earendil-works/pi-coding-agent";
import { createPiRuntime, echoReply } from "../../testkit/src/pi/pi-runtime.js";

export {
  echoReply as fauxReply,
  fauxModelRuntime,
  testServices,
  testSettings,
} from "../../testkit/src/pi/pi-runtime.js";

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
  /** Receives the extensions' `ctx.ui.notify` calls (print mode drops them). */
  readonly notify?: (message: string, type?: "info" | "warning" | "error") => void;
}

/** Starts pi's SDK over the faux model with the given extensions (see the module comment). */
export async function createPiSdk(options: PiSdkOptions): Promise<PiSdk> {
  const { runtime, faux } = await createPiRuntime({
    ...options,
    reply: echoReply,
    builtinTools: false,
    keepRecentTokens: 1,
    notify: options.notify ?? (() => {}),
  });
  return {
    runtime,
    faux,
    session: () => runtime.session,
    prompt: (text) => runtime.session.prompt(text),
    dispose: () => runtime.dispose(),
  };
}
