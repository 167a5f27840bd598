/**
 * Codecs for content blocks (SPEC §3.4) and the `content` fields built from them.
 *
 * Blocks are checked the same way wherever they appear: a block whose `type` is known is
 * checked by that type's codec, any other block is kept as it is (SPEC §2.6). Each `content`
 * codec is typed with the blocks that position holds (a user message holds text and images);
 * the runtime does not reject a known block in an unusual position, because the reference
 * does not either and the data must survive.
 */

import * as t from "io-ts";
import {
  AnyObject,
  type IdCodec,
  objectCodec,
  stringOr,
  TaggedDispatchType,
} from "./combinators.js";

/** `{type: "text", text, textSignature?}`; `textSignature` is an opaque provider signature. */
export const TextContentCodec = objectCodec(
  "TextContent",
  { type: t.literal("text"), text: t.string },
  { textSignature: t.string },
);

/** Plain text content block. */
export type TextContent = t.TypeOf<typeof TextContentCodec>;

/** `{type: "image", data, mimeType}` (base64 data). */
export const ImageContentCodec = objectCodec("ImageContent", {
  type: t.literal("image"),
  data: t.string,
  mimeType: t.string,
});

/** Base64 image content block. */
export type ImageContent = t.TypeOf<typeof ImageContentCodec>;

/** `{type: "thinking", thinking, thinkingSignature?, redacted?}`. */
export const ThinkingContentCodec = objectCodec(
  "ThinkingContent",
  { type: t.literal("thinking"), thinking: t.string },
  { thinkingSignature: t.string, redacted: t.boolean },
);

/** Model reasoning content block. */
export type ThinkingContent = t.TypeOf<typeof ThinkingContentCodec>;

/**
 * `{type: "toolCall", id, name, arguments, thoughtSignature?, namespace?, argumentsError?}`.
 * `arguments` must be an object; its contents are the tool's business and are not checked.
 */
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

/** The wire names of the built-in content block types. */
export const KNOWN_CONTENT_BLOCK_TYPES: readonly ContentBlock["type"][] = Object.freeze(
  Object.keys(CONTENT_BLOCK_CODECS) as ContentBlock["type"][],
);

/**
 * Any content block, dispatched on `type`. A block with an unknown string `type` is kept as it
 * is (SPEC §2.6) and is not part of the static type: switch on `type` with a default branch.
 */
export const ContentBlockCodec: IdCodec<ContentBlock> = new TaggedDispatchType<ContentBlock>(
  "ContentBlock",
  "type",
  CONTENT_BLOCK_CODECS,
  "keep",
);

/** An array of blocks, typed as the position declares it (see the module comment). */
function blocks<A extends ContentBlock>(name: string): IdCodec<A[]> {
  // The runtime accepts any block; the declared element type is what this position holds.
  return t.array(ContentBlockCodec, name) as unknown as IdCodec<A[]>;
}

const TEXT_OR_IMAGE = "(TextContent | ImageContent)[]";

/** `content` of user and custom messages and custom_message entries: a string or text/image blocks. */
export const UserContentCodec: IdCodec<string | (TextContent | ImageContent)[]> = stringOr(
  `string | ${TEXT_OR_IMAGE}`,
  blocks<TextContent | ImageContent>(TEXT_OR_IMAGE),
);

/** `content` of an assistant message: text, thinking and tool-call blocks. */
export const AssistantContentCodec: IdCodec<(TextContent | ThinkingContent | ToolCall)[]> = blocks(
  "(TextContent | ThinkingContent | ToolCall)[]",
);

/** `content` of a tool result: text and image blocks. */
export const ToolResultContentCodec: IdCodec<(TextContent | ImageContent)[]> =
  blocks(TEXT_OR_IMAGE);

/** `content` of a system message: a string or text blocks. */
export const SystemContentCodec: IdCodec<string | TextContent[]> = stringOr(
  "string | TextContent[]",
  blocks<TextContent>("TextContent[]"),
);

/** Content a context edit may put in place of an entry's content: any message's content. */
export type ContextEditableContent =
  | t.TypeOf<typeof UserContentCodec>
  | t.TypeOf<typeof AssistantContentCodec>
  | t.TypeOf<typeof ToolResultContentCodec>;

/**
 * `replacement.content` of a context_edit entry: a string or blocks of any of the kinds the
 * edited message can hold. Which kinds depends on the target, which a codec cannot see, so any
 * block is checked and the value is typed as the union of the content types.
 */
export const ContextEditableContentCodec: IdCodec<ContextEditableContent> = stringOr(
  "string | ContentBlock[]",
  blocks<ContentBlock>("ContentBlock[]"),
) as IdCodec<ContextEditableContent>;
