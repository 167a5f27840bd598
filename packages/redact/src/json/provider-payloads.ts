/**
 * Provider payloads in an entry: strings a provider wrote for itself and gets back as they were.
 * Where they sit is fixed by pi's message format, and only there are they payloads — the same
 * member names anywhere else (an extension's `details`, a custom entry's `data`, JSON carried
 * as text) are ordinary text and scanned as such.
 *
 * - **Link ids** (`toolCallId` of a message, `id` of a `toolCall` block): ids a provider issued
 *   (`toolu_01…`, `call_…|fc_…`) that pair a call with its result. No one writes text there,
 *   and they look random: the entropy detector took every one for a secret, and rewriting them
 *   would change the conversation pi replays for nothing. Never scanned.
 * - **Image bytes** (`data` of an `image` block): base64, not text (a secret shown in a
 *   screenshot is pixels). Never scanned.
 * - **Signatures** (`thinkingSignature`, `textSignature`, `thoughtSignature` of a block): mostly
 *   opaque base64, but not always — OpenAI's Responses API keeps the whole reasoning item there
 *   as JSON, with the reasoning summary (the text of the thinking block) and sometimes the raw
 *   reasoning in plain text, and OpenRouter-style `reasoning_details` hold the reasoning text
 *   too. A secret the model reasoned about is then in the signature as well, so signatures are
 *   scanned by the rules; only the detectors that guess (the entropy detector, rules without
 *   literals) leave them alone, since base64 looks random to them.
 */
import type { JsonStrings, StringToken } from "./json-tokens.js";

/** What a string at the line's top level is to the redactor. */
export type PayloadKind = "text" | "signature" | "opaque";

/** Block members holding a provider's signature. */
const SIGNATURE_MEMBERS: ReadonlySet<string> = new Set([
  "thinkingSignature",
  "textSignature",
  "thoughtSignature",
]);

/** Top-level members whose object holds a `content` array of blocks. */
const BLOCK_HOLDERS: ReadonlySet<string> = new Set(["message", "replacement"]);

/** The number of the line's own object (the first container of the line). */
const LINE_OBJECT = 0;

/**
 * Whether container `block` is a content block: an element of a `content` array that is a
 * member of the line's object (a custom message's) or of its `message` or `replacement`
 * object (a message's, a context edit's).
 */
function isContentBlock(strings: JsonStrings, block: number): boolean {
  if (strings.containerMember.get(block) !== "content") return false;
  const array = strings.containerParent.get(block);
  if (array === undefined || strings.containerMember.get(array) !== "content") return false;
  const holder = strings.containerParent.get(array);
  if (holder === LINE_OBJECT) return true;
  return (
    holder !== undefined &&
    strings.containerParent.get(holder) === LINE_OBJECT &&
    BLOCK_HOLDERS.has(strings.containerMember.get(holder) ?? "")
  );
}

/** What the string `token` of a line's JSON is: text, a signature, or an opaque payload. */
export function payloadKind(token: StringToken, strings: JsonStrings): PayloadKind {
  if (token.isKey || token.member === undefined) return "text";
  const member = token.member;
  if (member === "toolCallId") {
    const holder = token.container;
    const isMessage =
      strings.containerMember.get(holder) === "message" &&
      strings.containerParent.get(holder) === LINE_OBJECT;
    return isMessage ? "opaque" : "text";
  }
  if (member !== "id" && member !== "data" && !SIGNATURE_MEMBERS.has(member)) return "text";
  if (!isContentBlock(strings, token.container)) return "text";
  const type = strings.containerType.get(token.container);
  if (SIGNATURE_MEMBERS.has(member)) return "signature";
  if (member === "id" && type === "toolCall") return "opaque";
  if (member === "data" && type === "image") return "opaque";
  return "text";
}
