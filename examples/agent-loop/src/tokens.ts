/**
 * A crude tokenizer for the toy model: about four characters per token, as the usual rule of
 * thumb. Good enough to make usage numbers grow with the context, which is all the demo needs.
 */
import type { AgentMessage } from "@pi-sessions/core";

/** Tokens of a piece of text (at least 1 for non-empty text). */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The text a message puts in front of the model. */
export function messageText(message: AgentMessage): string {
  switch (message.role) {
    case "user":
    case "custom":
    case "system":
      return typeof message.content === "string"
        ? message.content
        : message.content.map((b) => (b.type === "text" ? b.text : "[image]")).join("\n");
    case "assistant":
      return message.content
        .map((b) =>
          b.type === "text" ? b.text : b.type === "toolCall" ? JSON.stringify(b.arguments) : "",
        )
        .join("\n");
    case "toolResult":
      return message.content.map((b) => (b.type === "text" ? b.text : "[image]")).join("\n");
    case "bashExecution":
      return `${message.command}\n${message.output}`;
    case "branchSummary":
    case "compactionSummary":
      return message.summary;
    default:
      return "";
  }
}

/** Tokens of a whole context. */
export function contextTokens(messages: readonly AgentMessage[]): number {
  return messages.reduce((sum, m) => sum + tokensOf(messageText(m)), 0);
}
