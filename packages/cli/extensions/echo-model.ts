/**
 * An offline model for trying `pi-sessions pi` without an API key: a pi extension (pi's
 * docs/custom-provider.md) that registers pi-ai's faux provider as provider `faux` with model
 * `faux-1`, answering every prompt with "Noted: <the prompt>". pi loads it with
 * `-e <this file>` and compiles it itself; `@earendil-works/pi-ai` is the copy pi provides to
 * its extensions, so installing @pi-sessions/cli needs nothing more.
 *
 *   pi-sessions pi -e "$(npm root -g)/@pi-sessions/cli/extensions/echo-model.ts" \
 *     --model faux/faux-1 -p "Remember the tests."
 *   Noted: Remember the tests.
 */
import {
  type AssistantMessage,
  fauxAssistantMessage,
  fauxProvider,
  type Message,
} from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

/** The text of a message's text blocks. */
function textOf(message: Message): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** The answer to one request: "Noted: " and the text of its last user message. */
function echo(messages: readonly Message[]): AssistantMessage {
  const lastUser = messages.findLast((message) => message.role === "user");
  return fauxAssistantMessage(lastUser ? `Noted: ${textOf(lastUser)}` : "Nothing to answer.");
}

/** How many requests one pi process can answer: the faux provider takes a finite script. */
const ANSWERS = 1000;

/** The extension: registers the echoing provider `faux` (model `faux-1`). */
export default function echoModel(pi: ExtensionAPI): void {
  // A fixed api name: the faux provider's default one is random and would land in each answer.
  const faux = fauxProvider({ api: "faux", models: [{ id: "faux-1" }] });
  faux.setResponses(
    Array.from(
      { length: ANSWERS },
      () => (context: { messages: Message[] }) => echo(context.messages),
    ),
  );
  pi.registerProvider(faux.provider);
}
