/**
 * Content blocks (SPEC §3.4) and the `content` fields built from them. Each block arbitrary
 * generates only values its core codec (`TextContentCodec`, …) accepts; optional fields are
 * absent rather than `undefined`.
 */
import type {
  ContentBlock,
  ImageContent,
  TextContent,
  ThinkingContent,
  ToolCall,
} from "@pi-sessions/core";
import fc from "fast-check";
import { jsonObjectArb, textArb, wordArb } from "./common.js";

/** Opaque provider signatures. */
const signatureArb = fc.base64String({ minLength: 4, maxLength: 24 });

/** `{type: "text", text, textSignature?}`. */
export const textContentArb: fc.Arbitrary<TextContent> = fc.record(
  { type: fc.constant("text" as const), text: textArb, textSignature: signatureArb },
  { requiredKeys: ["type", "text"], noNullPrototype: true },
);

/** `{type: "image", data, mimeType}` with short base64 data. */
export const imageContentArb: fc.Arbitrary<ImageContent> = fc.record(
  {
    type: fc.constant("image" as const),
    data: fc.base64String({ maxLength: 48 }),
    mimeType: fc.constantFrom("image/png", "image/jpeg", "image/gif", "image/webp"),
  },
  { noNullPrototype: true },
);

/** `{type: "thinking", thinking, thinkingSignature?, redacted?}`. */
export const thinkingContentArb: fc.Arbitrary<ThinkingContent> = fc.record(
  {
    type: fc.constant("thinking" as const),
    thinking: textArb,
    thinkingSignature: signatureArb,
    redacted: fc.boolean(),
  },
  { requiredKeys: ["type", "thinking"], noNullPrototype: true },
);

/** A tool-call id in one of the spellings providers use. */
export const toolCallIdArb: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^call_[A-Za-z0-9]{6,12}$/),
  fc.stringMatching(/^toolu_[A-Za-z0-9]{8,16}$/),
);

/** `{type: "toolCall", id, name, arguments, thoughtSignature?, namespace?, argumentsError?}`. */
export const toolCallArb: fc.Arbitrary<ToolCall> = fc.record(
  {
    type: fc.constant("toolCall" as const),
    id: toolCallIdArb,
    name: fc.oneof(fc.constantFrom("bash", "read", "edit", "write"), wordArb),
    arguments: jsonObjectArb,
    thoughtSignature: signatureArb,
    namespace: wordArb,
    argumentsError: textArb,
  },
  { requiredKeys: ["type", "id", "name", "arguments"], noNullPrototype: true },
);

/**
 * A block of a type this format does not define (SPEC §2.6: kept and passed through). Its
 * `type` starts with `x-` so it can never collide with a built-in block type.
 */
export const unknownBlockArb: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(wordArb, jsonObjectArb)
  .map(([name, payload]) => ({ type: `x-${name}`, payload }));

/** Any known content block. */
export const contentBlockArb: fc.Arbitrary<ContentBlock> = fc.oneof(
  textContentArb,
  imageContentArb,
  thinkingContentArb,
  toolCallArb,
);

/** Options of the `content` arbitraries. */
export interface ContentOptions {
  /** At most this many blocks (default 3). */
  maxBlocks?: number;
  /** Mix in blocks of unknown types (default false). */
  unknownBlocks?: boolean;
}

function blocksOf<T>(
  known: fc.Arbitrary<T>,
  options: ContentOptions,
  minLength = 0,
): fc.Arbitrary<T[]> {
  // Unknown blocks exist at run time but not in core's closed static unions (SPEC §2.6), so
  // they are typed as the position's known blocks; consumers must keep a default branch.
  const unknown = unknownBlockArb as unknown as fc.Arbitrary<T>;
  const item = options.unknownBlocks
    ? fc.oneof({ weight: 5, arbitrary: known }, { weight: 1, arbitrary: unknown })
    : known;
  return fc.array(item, { minLength, maxLength: options.maxBlocks ?? 3 });
}

/** Text and image blocks (user and tool-result content). */
export function textOrImageBlocksArb(
  options: ContentOptions = {},
): fc.Arbitrary<(TextContent | ImageContent)[]> {
  return blocksOf(
    fc.oneof({ weight: 4, arbitrary: textContentArb }, { weight: 1, arbitrary: imageContentArb }),
    options,
  );
}

/** `content` of user messages, custom messages and custom_message entries. */
export function userContentArb(
  options: ContentOptions = {},
): fc.Arbitrary<string | (TextContent | ImageContent)[]> {
  return fc.oneof(textArb, textOrImageBlocksArb(options));
}

/** `content` of an assistant message: text, thinking and tool-call blocks. */
export function assistantContentArb(
  options: ContentOptions = {},
): fc.Arbitrary<(TextContent | ThinkingContent | ToolCall)[]> {
  return blocksOf(
    fc.oneof(
      { weight: 4, arbitrary: textContentArb },
      { weight: 2, arbitrary: thinkingContentArb },
      { weight: 2, arbitrary: toolCallArb },
    ),
    options,
  );
}
