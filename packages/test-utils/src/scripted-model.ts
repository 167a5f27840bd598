/**
 * The scripted offline model of the tests that drive pi (`@pi-sessions/test-utils/scripted-model`):
 * pi-ai's faux provider, registered as provider `faux` with models `faux-1` and `faux-2`,
 * answering each request from its last message rather than from a fixed queue — so both sides
 * of a comparison get the same answers, and a request more or fewer on one side (an extra
 * summary call, say) shows up as a difference in the files instead of shifting every later
 * answer. Tool calls carry fixed ids; pi runs its real tools in the cwd. Loaded in pi's own
 * process by the launcher tests' extension (through jiti), so it imports no test runner.
 */
import {
  type AssistantMessage,
  type FauxProviderHandle,
  fauxAssistantMessage,
  fauxProvider,
  fauxText,
  fauxToolCall,
  type Message,
  type ToolCall,
} from "@earendil-works/pi-ai";

/** Prompts that make the model call a tool, with that call and what it says first. */
export const SCRIPTED_TOOL_PROMPTS: Readonly<
  Record<string, { tool: string; args: ToolCall["arguments"]; say: string }>
> = {
  "List the files here.": { tool: "bash", args: { command: "ls" }, say: "Listing." },
  "Read notes.txt.": { tool: "read", args: { path: "notes.txt" }, say: "Reading." },
  "Count the lines of notes.txt.": {
    tool: "bash",
    args: { command: "wc -l < notes.txt" },
    say: "Counting.",
  },
};

/** Options of {@link scriptedFaux}. */
export interface ScriptedModelOptions {
  /** Plain answers by prompt; any other prompt is answered with "Noted: <prompt>". */
  readonly answers?: Readonly<Record<string, string>>;
}

function textOf(message: Message): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** The answer to request number `call`, from its last message (see the module comment). */
export function scriptedReply(
  messages: readonly Message[],
  call: number,
  options: ScriptedModelOptions = {},
): AssistantMessage {
  const last = messages[messages.length - 1];
  if (!last) return fauxAssistantMessage("Nothing to answer.");
  if (last.role === "toolResult") {
    const output = textOf(last).trim().split("\n")[0] ?? "";
    return fauxAssistantMessage(`The ${last.toolName} tool said: ${output}`);
  }
  const text = textOf(last);
  // Compaction, split-turn prefixes and branch summaries send the serialised conversation as
  // one user message.
  if (text.startsWith("<conversation>") || text.startsWith("# Conversation")) {
    const kind = text.includes("summary of this conversation branch")
      ? "Branch"
      : text.startsWith("#")
        ? "Turn prefix"
        : "Session";
    return fauxAssistantMessage(`## Goal\n${kind} summary (request ${call}): files and notes.`);
  }
  const tool = SCRIPTED_TOOL_PROMPTS[text];
  if (tool) {
    const id = `call-${call}`;
    return fauxAssistantMessage([fauxText(tool.say), fauxToolCall(tool.tool, tool.args, { id })], {
      stopReason: "toolUse",
    });
  }
  return fauxAssistantMessage(options.answers?.[text] ?? `Noted: ${text}`);
}

/** A faux provider ("faux", models faux-1 and faux-2) answering by {@link scriptedReply}. */
export function scriptedFaux(options: ScriptedModelOptions = {}): FauxProviderHandle {
  const faux = fauxProvider({
    // A fixed api name: the default one is random and would land in every assistant message.
    api: "faux",
    models: [
      { id: "faux-1", reasoning: true },
      { id: "faux-2", reasoning: true },
    ],
  });
  // The provider takes a finite script: one step per request, each answering from the request.
  faux.setResponses(
    Array.from(
      { length: 500 },
      () => (context: { messages: Message[] }, _options: unknown, state: { callCount: number }) =>
        scriptedReply(context.messages, state.callCount, options),
    ),
  );
  return faux;
}
