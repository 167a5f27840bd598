/**
 * The texts of one line that rules look at (its *segments*), each decoded and each able to say
 * where any of its positions lies in the raw line:
 *
 * - a JSON line gives every string literal, member names included, decoded (escapes undone), so
 *   a secret that spans an escape in the file (`\"`, `\n`, `\u0041`) is seen whole;
 * - a string that is itself JSON (a tool result carrying a response body, a file read by the
 *   agent), or a multi-line string some of whose lines are JSON (JSONL printed by a tool), gives
 *   the strings inside that JSON, decoded again, down to {@link MAX_NESTING} levels;
 * - a line that is not JSON (damaged, torn) is one segment, the line as it is.
 *
 * The strings whose change would break the session are not segments: the top-level reference
 * fields of an entry ({@link STRUCTURAL_FIELDS}) and opaque provider payloads
 * ({@link isOpaque}: signatures, tool-call ids, base64 image data).
 */
import { decodeLiteral, jsonStrings, type StringToken } from "./json-tokens.js";
import { type PositionMap, shifted, tokenPositions } from "./position-map.js";

/** A decoded text of a line and the way back to the line's raw positions. */
export interface Segment {
  readonly text: string;
  /** The raw line position of decoded position `pos` (`0 ≤ pos ≤ text.length`). */
  readonly toRaw: PositionMap;
}

/** What a line holds for the rules. */
export interface LineSegments {
  readonly segments: readonly Segment[];
  /** Whether the line is JSON (else it is one raw segment). */
  readonly json: boolean;
  /** The entry's top-level `id`, when it has a string one. */
  readonly entryId: string | undefined;
  /** The top-level `type`, when a string (`session` for the header). */
  readonly type: string | undefined;
}

/**
 * Top-level members of an entry that are never rewritten: its identity and the tree (`id`,
 * `parentId`, `type`, `timestamp`) and the fields that point at other entries (`targetId` of a
 * label or context edit, `firstKeptEntryId` of a compaction, `fromId` of a branch summary).
 * Changing any of them would change the tree or what pi rebuilds from it (SPEC X1).
 */
export const STRUCTURAL_FIELDS: ReadonlySet<string> = new Set([
  "type",
  "id",
  "parentId",
  "timestamp",
  "targetId",
  "firstKeptEntryId",
  "fromId",
]);

/** Members holding a provider's opaque signature: changed, the provider rejects the resume. */
const SIGNATURE_MEMBERS: ReadonlySet<string> = new Set([
  "thinkingSignature",
  "textSignature",
  "thoughtSignature",
]);

/**
 * Whether a string value is an opaque payload rather than text: a signature (sent back to the
 * provider as it was), a tool-call link id, or the base64 `data` of an image block. Neither is text a person wrote or
 * read, and neither can be rewritten without breaking what it encodes.
 */
export function isOpaque(token: StringToken, containerType: ReadonlyMap<number, string>): boolean {
  if (token.isKey || token.member === undefined) return false;
  if (SIGNATURE_MEMBERS.has(token.member)) return true;
  const type = containerType.get(token.container);
  // The ids that link a tool call to its result (`toolu_01…`): provider-issued, never text,
  // and a pair that stopped matching would break the conversation pi replays.
  if (token.member === "toolCallId" || (token.member === "id" && type === "toolCall")) return true;
  return token.member === "data" && type === "image";
}

/** How deep JSON inside strings is followed (a string of JSON holding a string of JSON …). */
export const MAX_NESTING = 4;

const BOM = 0xfeff;

/** Whether `text` parses as JSON whose top level is an object or an array. */
function isJsonContainer(text: string): boolean {
  const first = text.trimStart().charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) return false;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null;
  } catch {
    return false;
  }
}

/** The segments of the string literals of `json` (valid JSON), mapped through `toRaw`. */
function jsonSegments(
  json: string,
  from: number,
  toRaw: PositionMap,
  nesting: number,
  skip: ((t: StringToken, types: ReadonlyMap<number, string>) => boolean) | undefined,
  out: Segment[],
): ReturnType<typeof jsonStrings> {
  const strings = jsonStrings(json, from);
  for (const token of strings.tokens) {
    if (skip?.(token, strings.containerType)) continue;
    const text = decodeLiteral(json, token.start, token.end, token.escaped);
    const map = tokenPositions(json, token, text.length, toRaw);
    textSegments(text, map, nesting, out);
  }
  return strings;
}

/**
 * The segments of one decoded string: itself, or the strings of the JSON it holds, or — when
 * some of its lines are JSON — those lines' strings and the text between them.
 */
function textSegments(text: string, toRaw: PositionMap, nesting: number, out: Segment[]): void {
  if (nesting < MAX_NESTING && text.length > 1) {
    if (isJsonContainer(text)) {
      jsonSegments(text, 0, toRaw, nesting + 1, undefined, out);
      return;
    }
    if (
      text.includes("\n{") ||
      text.includes("\n[") ||
      text.startsWith("{") ||
      text.startsWith("[")
    ) {
      if (jsonLines(text, toRaw, nesting, out)) return;
    }
  }
  out.push({ text, toRaw });
}

/**
 * Splits a multi-line text into its JSON lines (followed into) and the text between them (kept
 * together, so a multi-line secret in plain text stays one segment). Returns false, adding
 * nothing, when no line is JSON.
 */
function jsonLines(text: string, toRaw: PositionMap, nesting: number, out: Segment[]): boolean {
  const parts: Segment[] = [];
  let plainStart = 0;
  let found = false;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const first = text.charCodeAt(lineStart);
    if ((first === 0x7b || first === 0x5b) && isJsonContainer(text.slice(lineStart, lineEnd))) {
      found = true;
      if (plainStart < lineStart) {
        const from = plainStart;
        parts.push({ text: text.slice(from, lineStart), toRaw: shifted(toRaw, from) });
      }
      jsonSegments(
        text.slice(lineStart, lineEnd),
        0,
        shifted(toRaw, lineStart),
        nesting + 1,
        undefined,
        parts,
      );
      plainStart = lineEnd;
    }
    lineStart = lineEnd + 1;
  }
  if (!found) return false;
  if (plainStart < text.length) {
    parts.push({ text: text.slice(plainStart), toRaw: shifted(toRaw, plainStart) });
  }
  out.push(...parts);
  return true;
}

const identity: PositionMap = (pos) => pos;

/** Whether a top-level token is one of the entry's structural fields. */
function structural(token: StringToken): boolean {
  return (
    !token.isKey &&
    token.depth === 1 &&
    token.member !== undefined &&
    STRUCTURAL_FIELDS.has(token.member)
  );
}

/** The segments of one line of a session file (without its `\n`). */
export function lineSegments(line: string): LineSegments {
  const from = line.charCodeAt(0) === BOM ? 1 : 0;
  let value: unknown;
  try {
    value = JSON.parse(from === 0 ? line : line.slice(from));
  } catch {
    return {
      segments: [{ text: line, toRaw: identity }],
      json: false,
      entryId: undefined,
      type: undefined,
    };
  }
  const segments: Segment[] = [];
  const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
  jsonSegments(
    line,
    from,
    identity,
    0,
    (t, types) => (isObject && structural(t)) || isOpaque(t, types),
    segments,
  );
  const record = isObject ? (value as Record<string, unknown>) : undefined;
  return {
    segments,
    json: true,
    entryId: typeof record?.id === "string" ? record.id : undefined,
    type: typeof record?.type === "string" ? record.type : undefined,
  };
}
