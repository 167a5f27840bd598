/**
 * Codecs for content blocks (SPEC §3.4) and the `content` fields built from them. A known block
 * is checked by its codec wherever it appears, any other kept (SPEC §2.6). Each `content` codec
 * is typed with the blocks its position holds, but a known block in an unusual position is not
 * rejected: the reference does not either, and the data must survive.
 */

import * as t from "io-ts";
import { AnyObject, type IdCodec, objectCodec, stringOr, taggedUnion } from "./combinators.js";

/** Checks a {@link TextContent}; `textSignature` is an opaque provider signature. */
export const TextContentCodec = objectCodec(
  "TextContent",
  { type: t.literal("text"), text: t.string },
  { textSignature: t.string },
);
/** Plain text content block. */
export type TextContent = t.TypeOf<typeof TextContentCodec>;

/** Checks an {@link ImageContent}. */
export const ImageContentCodec = objectCodec("ImageContent", {
  type: t.literal("image"),
  data: t.string,
  mimeType: t.string,
});
/** Base64 image content block. */
export type ImageContent = t.TypeOf<typeof ImageContentCodec>;

/** Checks a {@link ThinkingContent}. */
export const ThinkingContentCodec = objectCodec(
  "ThinkingContent",
  { type: t.literal("thinking"), thinking: t.string },
  { thinkingSignature: t.string, redacted: t.boolean },
);
/** Model reasoning content block. */
export type ThinkingContent = t.TypeOf<typeof ThinkingContentCodec>;

/** Checks a {@link ToolCall}: `arguments` must be an object, its contents are the tool's. */
export const ToolCallCodec = objectCodec(
  "ToolCall",
  { type: t.literal("toolCall"), id: t.string, name: t.string, arguments: AnyObject },
  { thoughtSignature: t.string, namespace: t.string, argumentsError: t.string },
);
/** A tool invocation requested by the assistant. */
export type ToolCall = t.TypeOf<typeof ToolCallCodec>;

/** Every content block type the format defines. */
export type ContentBlock = TextContent | ImageContent | ThinkingContent | ToolCall;

/** Block codecs keyed by wire `type`. */
export const CONTENT_BLOCK_CODECS = Object.freeze({
  text: TextContentCodec,
  image: ImageContentCodec,
  thinking: ThinkingContentCodec,
  toolCall: ToolCallCodec,
} as const);

/** Any content block, dispatched on `type`; an unknown `type` is kept (switch with a default). */
export const ContentBlockCodec = taggedUnion<ContentBlock>(
  "ContentBlock",
  "type",
  CONTENT_BLOCK_CODECS,
  "keep",
);

/** An array of any blocks, typed with the blocks this position holds (see the module comment). */
function blocks<A extends ContentBlock>(name: string): IdCodec<A[]> {
  return t.array(ContentBlockCodec, name) as unknown as IdCodec<A[]>;
}

const TEXT_OR_IMAGE = "(TextContent | ImageContent)[]";

/** `content` of a tool result: text and image blocks. */
export const ToolResultContentCodec = blocks<TextContent | ImageContent>(TEXT_OR_IMAGE);

/** `content` of user and custom messages and custom_message entries. */
export const UserContentCodec = stringOr(`string | ${TEXT_OR_IMAGE}`, ToolResultContentCodec);

/** `content` of an assistant message: text, thinking and tool-call blocks. */
export const AssistantContentCodec = blocks<TextContent | ThinkingContent | ToolCall>(
  "(TextContent | ThinkingContent | ToolCall)[]",
);

/** `content` of a system message: a string or text blocks. */
export const SystemContentCodec = stringOr(
  "string | TextContent[]",
  blocks<TextContent>("TextContent[]"),
);

/** Content a context edit may put in place of an entry's content: any message's content. */
export type ContextEditableContent =
  | t.TypeOf<typeof UserContentCodec>
  | t.TypeOf<typeof AssistantContentCodec>
  | t.TypeOf<typeof ToolResultContentCodec>;

/** `replacement.content` of a context_edit entry: any block, as the codec cannot see the target. */
export const ContextEditableContentCodec = stringOr(
  "string | ContentBlock[]",
  blocks<ContentBlock>("ContentBlock[]"),
) as IdCodec<ContextEditableContent>;
