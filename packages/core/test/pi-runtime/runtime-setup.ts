/**
 * Builds pi's real agent runtime for one side of the pi-runtime test: pi's SDK
 * (`createAgentSessionRuntime` with services per cwd), the scripted faux model, in-memory
 * settings, real `read` and `bash` tools, and an inline extension that writes through
 * `pi.appendEntry` (from a command and from `session_start` on a resume), `pi.sendMessage`,
 * `pi.setLabel` and a `turn_end` context_edit proposal.
 * Everything lives in the side's temp dirs; nothing is discovered from ~/.pi or the repo.
 */
import { join } from "node:path";
import type { AssistantMessage, FauxProviderHandle } from "@earendil-works/pi-ai";
import {
  type AgentSessionRuntime,
  createAgentSessionFromServices,
  createAgentSessionRuntime,
  type ExtensionFactory,
  type SessionManager,
} from "@earendil-works/pi-coding-agent";
import { fauxModelRuntime, testServices, testSettings } from "@pi-sessions/test-utils/pi-sdk";
import { DRAFT_ANSWER, scriptedFaux } from "./faux-replies.js";

/** The temp directories of one side (same layout and name lengths on both sides). */
export interface SideDirs {
  /** The side's temp root; every path below is inside it. */
  readonly root: string;
  /** `PI_CODING_AGENT_DIR`: settings, auth and the default `sessions/` root. */
  readonly agentDir: string;
  /** The working directory pi's tools run in. */
  readonly cwd: string;
  /** Where `exportToJsonl` writes the file that is imported again. */
  readonly exportDir: string;
}

/** The directory layout under a side's root (the test gives both sides same-length roots). */
export function sideDirs(root: string): SideDirs {
  return {
    root,
    agentDir: join(root, "agent"),
    cwd: join(root, "work"),
    exportDir: join(root, "export"),
  };
}

/** The context_edit replacement the extension proposes for {@link DRAFT_ANSWER}. */
export const EDITED_ANSWER = "Edited: the notes say hello.";

/** The flow's extension command: `/stamp <entryId> <label|->` (label `-` clears it). */
export const STAMP_COMMAND = "stamp";

function assistantText(message: unknown): string {
  const m = message as Partial<AssistantMessage>;
  if (m.role !== "assistant" || !Array.isArray(m.content)) return "";
  return m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/** Options of the flow's extension. */
export interface FlowExtensionOptions {
  /** Append a `flow-shutdown` custom entry on every `session_shutdown` (shutdown-flow.ts). */
  readonly writeOnShutdown?: boolean;
}

/**
 * The inline extension. pi calls the factory again for every runtime replacement (new,
 * resume, fork, import), so it keeps no state of its own.
 */
const flowExtension =
  (options: FlowExtensionOptions): ExtensionFactory =>
  (pi) => {
    pi.registerCommand(STAMP_COMMAND, {
      description: "Bookmark an entry: custom entry, custom message and label",
      handler: async (args) => {
        const [target = "", label = "-"] = args.trim().split(/\s+/);
        pi.appendEntry("flow-stamp", { target, label });
        pi.sendMessage({
          customType: "flow-note",
          content: `Stamped ${target} as ${label}.`,
          display: true,
          details: { label },
        });
        pi.setLabel(target, label === "-" ? undefined : label);
      },
    });
    // Restores and re-saves its state whenever pi resumes a session, writing through the
    // manager of a file this process wrote before (the first flow that broke on ours).
    pi.on("session_start", (event) => {
      if (event.reason === "resume") pi.appendEntry("flow-resumed", { reason: event.reason });
    });
    // Saves state when the session is replaced or closed, as extensions that persist state do.
    if (options.writeOnShutdown) {
      pi.on("session_shutdown", (event) => {
        pi.appendEntry("flow-shutdown", { reason: event.reason });
      });
    }
    // Proposes a context_edit of the draft answer at the end of its turn (extensions.md).
    pi.on("turn_end", (event) => {
      if (assistantText(event.message) !== DRAFT_ANSWER) return;
      return {
        entries: [
          ...event.entries,
          {
            type: "context_edit",
            targetId: event.messageEntryId,
            replacement: { content: EDITED_ANSWER },
          },
        ],
      };
    });
  };

/** The runtime plus the faux provider whose call count the log reports. */
export interface FlowRuntime {
  readonly runtime: AgentSessionRuntime;
  readonly faux: FauxProviderHandle;
}

/**
 * Creates pi's runtime over `sessionManager` (whichever class the shim hands out). The same
 * factory is reused by pi for newSession, switchSession, fork and importFromJsonl; only the
 * first session gets an explicit model, later ones restore theirs from the session as pi's
 * CLI does.
 */
export async function createFlowRuntime(
  dirs: SideDirs,
  sessionManager: SessionManager,
  extension: FlowExtensionOptions = {},
): Promise<FlowRuntime> {
  const faux = scriptedFaux();
  const modelRuntime = await fauxModelRuntime(dirs.agentDir, faux);
  // The flow's manual compaction summarises the history and the last turn's prefix (two
  // summary requests, split-turn details): testSettings' tiny keepRecentTokens.
  const settingsManager = testSettings();
  let first = true;
  const runtime = await createAgentSessionRuntime(
    async ({ cwd, agentDir, sessionManager: manager, sessionStartEvent }) => {
      const services = await testServices({ cwd, agentDir, settingsManager, modelRuntime }, [
        flowExtension(extension),
      ]);
      const initial = first
        ? { model: faux.getModel("faux-1"), thinkingLevel: "off" as const }
        : {};
      first = false;
      const result = await createAgentSessionFromServices({
        services,
        sessionManager: manager,
        sessionStartEvent,
        tools: ["read", "bash"],
        ...initial,
      });
      return { ...result, services, diagnostics: services.diagnostics };
    },
    { cwd: dirs.cwd, agentDir: dirs.agentDir, sessionManager },
  );
  // As pi's print mode does: extensions are bound (and get session_start) on the first
  // session and again after every replacement (new, resume, fork, import).
  const bind = () => runtime.session.bindExtensions({ mode: "print" });
  runtime.setRebindSession(bind);
  await bind();
  return { runtime, faux };
}
