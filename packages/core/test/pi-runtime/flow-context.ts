/**
 * What the scripted flows of the pi-runtime test are made of: helpers that drive pi's
 * runtime and find entry ids, and the step runner that records each step's outcome.
 *
 * A step that throws is recorded and the flow goes on, so one failure (on our side, say)
 * still shows what the later steps do. The clock ticks once before each step.
 */
import type { FauxProviderHandle } from "@earendil-works/pi-ai";
import type {
  AgentSession,
  AgentSessionRuntime,
  SessionEntry,
} from "@earendil-works/pi-coding-agent";
import { asScript, unwrap } from "./call-recorder.js";
import type { Side } from "./child-env.js";
import type { SideDirs } from "./runtime-setup.js";
import { SideSessionManager } from "./session-manager-shim.js";
import { tickClock } from "./step-clock.js";

/** What one step did: its error, if any, and where the runtime stood afterwards. */
export interface StepRecord {
  readonly name: string;
  /** `Name: message` of the error the step threw. */
  readonly error?: string;
  /** The runtime's session file after the step. */
  readonly sessionFile?: string;
  /** The class behind the runtime's manager: this side's, or something else (a bug). */
  readonly routedTo: Side | "other";
}

/** The outcome of a flow, for the side's log. */
export interface FlowResult {
  readonly steps: StepRecord[];
  /** Every session file the runtime was on, in order of first appearance. */
  readonly sessionFiles: string[];
}

/** One step: a name for the report and what it does. */
export type Step = readonly [name: string, run: () => Promise<void>];

/** The runtime of one side and the helpers the flows use on it. */
export interface FlowContext {
  readonly runtime: AgentSessionRuntime;
  readonly faux: FauxProviderHandle;
  readonly dirs: SideDirs;
  /** The runtime's current session (it changes with every replacement). */
  session(): AgentSession;
  prompt(text: string): Promise<void>;
  /** The current session's file; throws while it has none. */
  fileOf(): string;
  leafId(): string;
  /** The id of the last entry of the current session that passes `test`; throws if none. */
  findEntry(test: (entry: SessionEntry) => boolean): string;
  /** The id of the last `role` message whose text is `text`. */
  byText(role: string, text: string): string;
}

function messageText(entry: SessionEntry): string {
  if (entry.type !== "message") return "";
  const content = (entry.message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b: { type?: string; text?: string }) => (b.type === "text" ? b.text : ""))
    .join("");
}

/** `/new`, then a prompt in the fresh session: a step both flows take. */
export function newSessionStep(ctx: FlowContext, name = "newSession (/new), prompt"): Step {
  return [
    name,
    async () => {
      await ctx.runtime.newSession();
      await ctx.prompt("A fresh start.");
    },
  ];
}

/** `/resume` back to the first session (`file()` names it once known), then a prompt. */
export function resumeFirstStep(ctx: FlowContext, file: () => string): Step {
  return [
    "switchSession (/resume) back to the first session, prompt",
    async () => {
      await ctx.runtime.switchSession(file());
      await ctx.prompt("Back in the first session.");
    },
  ];
}

/** The helpers of {@link FlowContext} over `runtime`. */
export function flowContext(
  runtime: AgentSessionRuntime,
  faux: FauxProviderHandle,
  dirs: SideDirs,
): FlowContext {
  const session = () => runtime.session;
  // The script reads the manager to find entry ids; those reads are not pi's, so they are
  // counted under "script".
  const findEntry = (test: (e: SessionEntry) => boolean): string => {
    const found = asScript(() => session().sessionManager.getEntries()).findLast(test);
    if (!found) throw new Error("flow: entry not found");
    return found.id;
  };
  return {
    runtime,
    faux,
    dirs,
    session,
    prompt: (text) => session().prompt(text),
    fileOf: () => {
      const file = session().sessionFile;
      if (!file) throw new Error("flow: the session has no file");
      return file;
    },
    leafId: () => asScript(() => session().sessionManager.getLeafId()) ?? "",
    findEntry,
    byText: (role, text) =>
      findEntry(
        (e) =>
          e.type === "message" &&
          (e.message as { role: string }).role === role &&
          messageText(e) === text,
      ),
  };
}

/** Runs `steps` in order (see the module comment) and returns what each one did. */
export async function runSteps(
  ctx: FlowContext,
  steps: readonly Step[],
  side: Side,
): Promise<FlowResult> {
  const records: StepRecord[] = [];
  const sessionFiles: string[] = [];
  for (const [name, run] of steps) {
    tickClock();
    let error: string | undefined;
    try {
      await run();
    } catch (e) {
      error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
    const sessionFile = ctx.runtime.session.sessionFile;
    if (sessionFile && !sessionFiles.includes(sessionFile)) sessionFiles.push(sessionFile);
    // The proof that pi's runtime really runs on this side's class after each replacement.
    const manager = unwrap(ctx.runtime.session.sessionManager) as object;
    const routedTo = manager instanceof SideSessionManager ? side : "other";
    records.push({
      name,
      ...(error ? { error } : {}),
      ...(sessionFile ? { sessionFile } : {}),
      routedTo,
    });
  }
  return { steps: records, sessionFiles };
}
