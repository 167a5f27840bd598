/**
 * Rough size of a message as the model sees it. Tokens are estimated at four characters each
 * (the usual rule of thumb for English text and code; real tokenizers differ by model, so the
 * output always says "~"). An image counts as a fixed 1,200 tokens, about what providers bill
 * for a typical screenshot.
 */

/** Characters per token in the estimate. */
export const CHARS_PER_TOKEN = 4;

/** Tokens counted for one image block. */
export const IMAGE_TOKENS = 1200;

function blockChars(block: unknown): number {
  if (typeof block !== "object" || block === null) return 0;
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case "text":
      return typeof b.text === "string" ? b.text.length : 0;
    case "thinking":
      return typeof b.thinking === "string" ? b.thinking.length : 0;
    case "toolCall":
      return (typeof b.name === "string" ? b.name.length : 0) + jsonLength(b.arguments);
    case "image":
      return IMAGE_TOKENS * CHARS_PER_TOKEN;
    default:
      return jsonLength(b);
  }
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0; // a cycle cannot come from JSON, but stay total
  }
}

/**
 * Characters of a message's model-visible text: content, summaries, bash command and output,
 * a system message's prompt sections and tools.
 */
function messageChars(message: unknown): number {
  if (typeof message !== "object" || message === null) return 0;
  const m = message as Record<string, unknown>;
  let chars = 0;
  const content = m.content;
  if (typeof content === "string") chars += content.length;
  else if (Array.isArray(content)) for (const block of content) chars += blockChars(block);
  if (typeof m.summary === "string") chars += m.summary.length;
  if (typeof m.command === "string") chars += m.command.length;
  if (typeof m.output === "string") chars += m.output.length;
  return chars + systemChars(m);
}

/**
 * Characters of a pi 1.6 system message's prompt: its `content` is empty and the prompt is in
 * `sections` (name → text; `null` removes a section) with the tools in `toolsAdded` — the
 * largest message of most sessions, which counted ~0 tokens when only `content` was read.
 */
function systemChars(m: Record<string, unknown>): number {
  if (m.role !== "system") return 0;
  let chars = 0;
  const sections = m.sections;
  if (typeof sections === "object" && sections !== null) {
    for (const text of Object.values(sections)) if (typeof text === "string") chars += text.length;
  }
  if (Array.isArray(m.toolsAdded)) chars += jsonLength(m.toolsAdded);
  return chars;
}

/** Estimated tokens of one message (at least 1 for a message with any content). */
export function estimateTokens(message: unknown): number {
  return Math.ceil(messageChars(message) / CHARS_PER_TOKEN);
}

/** Bytes of the message as JSON: what it weighs in the session file and on the wire. */
export function messageBytes(message: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(message) ?? "");
  } catch {
    return 0;
  }
}
