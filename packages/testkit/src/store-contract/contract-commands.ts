/**
 * The writes the store contract makes through core's manager: the entries a session holds
 * before its first conversation message (settings, extension state, labels, a name) and the
 * messages and branch moves after it.
 */
import type { AssistantMessage, SessionManager } from "@pi-sessions/core";
import fc from "fast-check";
import { assistantMessage } from "../conformance/fixtures.js";

/** One write of a manager. */
export type ContractCommand =
  | { readonly kind: "user"; readonly text: string }
  | { readonly kind: "assistant"; readonly text: string }
  | { readonly kind: "model"; readonly model: string }
  | { readonly kind: "thinking"; readonly level: string }
  | { readonly kind: "custom"; readonly data: unknown }
  | { readonly kind: "name"; readonly name: string }
  | { readonly kind: "label"; readonly back: number; readonly label: string }
  | { readonly kind: "branch"; readonly back: number };

/** Text of any UTF-16 code units: quotes, escapes, astral and lone surrogates included. */
const textArb = fc.string({ unit: "binary", maxLength: 12 });

/** Writes that are not a user or assistant message: none of them writes a new session. */
export const settingCommandArb: fc.Arbitrary<ContractCommand> = fc.oneof(
  fc.record({ kind: fc.constant("model" as const), model: textArb }),
  fc.record({ kind: fc.constant("thinking" as const), level: fc.constantFrom("low", "high") }),
  fc.record({ kind: fc.constant("custom" as const), data: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ kind: fc.constant("name" as const), name: textArb }),
  fc.record({ kind: fc.constant("label" as const), back: fc.nat(4), label: textArb }),
);

/** Any write, messages and branch moves included. */
export const contractCommandArb: fc.Arbitrary<ContractCommand> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("user" as const), text: textArb }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("assistant" as const), text: textArb }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("branch" as const), back: fc.nat(6) }), weight: 1 },
  { arbitrary: settingCommandArb, weight: 2 },
);

let clock = 1_700_000_000_000;

/** An assistant reply with `text`, of the shape pi writes (the conformance fixture's). */
export function assistantReply(text: string): AssistantMessage {
  clock += 1000;
  return { ...assistantMessage(text, "faux", "contract"), timestamp: clock } as AssistantMessage;
}

/** The id `back` entries before the newest (the oldest when there are fewer). */
function earlier(sm: SessionManager, back: number): string | undefined {
  const entries = sm.getEntries();
  return entries[Math.max(0, entries.length - 1 - back)]?.id;
}

/** Makes `command`'s write on `sm`. */
export function applyCommand(sm: SessionManager, command: ContractCommand): void {
  switch (command.kind) {
    case "user":
      clock += 1000;
      sm.appendMessage({ role: "user", content: command.text, timestamp: clock });
      return;
    case "assistant":
      sm.appendMessage(assistantReply(command.text));
      return;
    case "model":
      sm.appendModelChange("faux", command.model);
      return;
    case "thinking":
      sm.appendThinkingLevelChange(command.level);
      return;
    case "custom":
      sm.appendCustomEntry("contract", command.data);
      return;
    case "name":
      sm.appendSessionInfo(command.name);
      return;
    case "label": {
      const target = earlier(sm, command.back);
      if (target !== undefined) sm.appendLabelChange(target, command.label);
      return;
    }
    case "branch": {
      const target = earlier(sm, command.back);
      if (target !== undefined) sm.branch(target);
      return;
    }
  }
}
