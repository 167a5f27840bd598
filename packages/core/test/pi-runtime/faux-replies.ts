/**
 * The scripted model of the pi-runtime test: pi-ai's faux provider, answering from what it
 * is asked rather than from a fixed queue, so that a request more or fewer on one side (an
 * extra summary call, say) shows up as a difference in the files instead of shifting every
 * later answer. Tool calls carry fixed ids; pi runs the real tools in the temp cwd.
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

/** Prompts of the flow that make the model call a tool, with that call. */
const TOOL_PROMPTS: Record<string, { tool: string; args: ToolCall["arguments"]; say: string }> = {
  "List the files here.": { tool: "bash", args: { command: "ls" }, say: "Listing." },
  "Read notes.txt.": { tool: "read", args: { path: "notes.txt" }, say: "Reading." },
  "Count the lines of notes.txt.": {
    tool: "bash",
    args: { command: "wc -l < notes.txt" },
    say: "Counting.",
  },
};

/** The text of an assistant answer that the flow's extension replaces by a context_edit. */
export const DRAFT_ANSWER = "DRAFT: the notes mention a plan.";

/** Plain answers by prompt; any other prompt is answered with "Noted: <prompt>". */
const ANSWERS: Record<string, string> = {
  "Draft an answer I can edit.": DRAFT_ANSWER,
  "What next?": "Next we branch the session.",
};

function textOf(message: Message): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** The answer to a request, from its last message (see the module comment). */
export function scriptedReply(messages: readonly Message[], call: number): AssistantMessage {
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
  const tool = TOOL_PROMPTS[text];
  if (tool) {
    const id = `call-${call}`;
    return fauxAssistantMessage([fauxText(tool.say), fauxToolCall(tool.tool, tool.args, { id })], {
      stopReason: "toolUse",
    });
  }
  return fauxAssistantMessage(ANSWERS[text] ?? `Noted: ${text}`);
}

/** A registered faux provider ("faux", models faux-1 and faux-2) answering by {@link scriptedReply}. */
export function scriptedFaux(): FauxProviderHandle {
  const faux = fauxProvider({
    // A fixed api name: the default one is random and would land in every assistant message.
    api: "faux",
    models: [
      { id: "faux-1", reasoning: true },
      { id: "faux-2", reasoning: true },
    ],
  });
  // One step per request; each step answers from the request itself.
  faux.setResponses(
    Array.from(
      { length: 200 },
      () => (context: { messages: Message[] }, _o: unknown, state) =>
        scriptedReply(context.messages, state.callCount),
    ),
  );
  return faux;
}
