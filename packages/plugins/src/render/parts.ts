/**
 * Rendering of the pieces messages and entries share: content blocks and usage lines.
 */
import { normalizeUsage } from "../usage/usage-sums.js";
import type { Fmt } from "./format.js";
import { formatCost, formatInt, get, safeJson, safeString, str, truncate } from "./text.js";
import type { RenderContext } from "./types.js";

/** A literal block (tool output, JSON) cut to the context's limit. */
export function literal(fmt: Fmt, ctx: RenderContext, text: string, lang = ""): string {
  return fmt.fence(truncate(text, ctx.maxTextLength), lang);
}

/** JSON of any value as a literal block. */
export function jsonBlock(fmt: Fmt, ctx: RenderContext, value: unknown): string {
  return literal(fmt, ctx, safeJson(value), "json");
}

function imageNote(fmt: Fmt, block: unknown): string {
  const data = get(block, "data");
  const size =
    typeof data === "string" ? ` · ${formatInt(Math.floor((data.length * 3) / 4))} bytes` : "";
  return fmt.note(
    `image ${fmt.inline(safeString(str(get(block, "mimeType")) ?? "of unknown type"))}${size}`,
  );
}

function toolCallPart(fmt: Fmt, ctx: RenderContext, block: unknown): string {
  const name = fmt.code(str(get(block, "name")) ?? "?");
  const id = str(get(block, "id"));
  const head =
    fmt.kind === "text"
      ? `tool call ${name}${id ? ` (${fmt.code(id)})` : ""}:`
      : `${fmt.strong("Tool call")} ${name}${id ? ` · ${fmt.code(id)}` : ""}`;
  const error = str(get(block, "argumentsError"));
  const parts = [head, jsonBlock(fmt, ctx, get(block, "arguments"))];
  if (error) parts.push(fmt.note(`arguments error: ${fmt.inline(error)}`));
  return parts.join("\n");
}

/** One content block of any message. */
function blockPart(fmt: Fmt, ctx: RenderContext, block: unknown, asLiteral: boolean): string {
  const type = get(block, "type");
  if (type === "text") {
    const text = safeString(get(block, "text") ?? "");
    return asLiteral ? literal(fmt, ctx, text) : fmt.prose(text);
  }
  if (type === "image") return imageNote(fmt, block);
  if (type === "thinking") {
    if (get(block, "redacted") === true) return fmt.note("thinking (redacted)");
    return fmt.quote(`Thinking: ${safeString(get(block, "thinking") ?? "")}`);
  }
  if (type === "toolCall") return toolCallPart(fmt, ctx, block);
  if (typeof block === "object" && block !== null) {
    const label = typeof type === "string" ? fmt.inline(type) : "without a type";
    return `${fmt.note(`content block ${label}`)}\n${jsonBlock(fmt, ctx, block)}`;
  }
  return `${fmt.note("unreadable content block")}\n${jsonBlock(fmt, ctx, block)}`;
}

/**
 * The parts of a `content` field: a string or an array of blocks. With `asLiteral`, text is
 * shown verbatim (tool output) rather than as Markdown prose.
 */
export function contentParts(
  fmt: Fmt,
  ctx: RenderContext,
  content: unknown,
  asLiteral = false,
): string[] {
  if (typeof content === "string") {
    return [asLiteral ? literal(fmt, ctx, content) : fmt.prose(content)];
  }
  if (Array.isArray(content)) return content.map((b) => blockPart(fmt, ctx, b, asLiteral));
  if (content === undefined) return [];
  return [`${fmt.note("unreadable content")}\n${jsonBlock(fmt, ctx, content)}`];
}

/** A one-line usage summary, or "" when there is no usage object. */
export function usagePart(fmt: Fmt, usage: unknown): string {
  if (typeof usage !== "object" || usage === null) return "";
  const u = normalizeUsage(usage);
  const items = [`${formatInt(u.input)} in`, `${formatInt(u.output)} out`];
  if (u.cacheRead !== 0) items.push(`${formatInt(u.cacheRead)} cache read`);
  if (u.cacheWrite !== 0) {
    const oneHour = u.cacheWrite1h !== 0 ? ` (${formatInt(u.cacheWrite1h)} for 1h)` : "";
    items.push(`${formatInt(u.cacheWrite)} cache write${oneHour}`);
  }
  if (u.reasoning !== 0) items.push(`${formatInt(u.reasoning)} reasoning`);
  items.push(formatCost(u.cost.total));
  return fmt.note(`usage: ${items.join(" · ")}`);
}
