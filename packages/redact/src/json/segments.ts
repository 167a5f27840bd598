/**
 * The texts of one line that rules look at (its *segments*), each decoded and each able to say
 * where any of its positions lies in the raw line:
 *
 * - a JSON line gives every string literal, member names included, decoded (escapes undone), so
 *   a secret that spans an escape in the file (`\"`, `\n`, `\u0041`) is seen whole;
 * - a string that is itself JSON (a tool result carrying a response body, a file read by the
 *   agent), or a multi-line string some of whose lines are JSON (JSONL printed by a tool), gives
 *   the strings inside that JSON, decoded again, at any depth (see {@link MAX_NESTING});
 * - a line that is not JSON (damaged, torn) is one segment as it is, and one more for each
 *   layer of escapes undone ({@link unescapedLayers}).
 *
 * Besides the segments, a line gives its *members*: each object member with a string value, as
 * a name and a value. Rules that need the name before a value (`"aws_secret_access_key": "…"`
 * in a JSON file the agent read) find nothing in the two strings apart; they see the member.
 *
 * The strings whose change would break the session are not segments: the top-level reference
 * fields of an entry ({@link STRUCTURAL_FIELDS}) and opaque provider payloads (tool-call link
 * ids, image bytes: {@link payloadKind}). Signatures are segments marked `payload`.
 */

import { unescapedLayers } from "./damaged-line.js";
import { decodeLiteral, type JsonStrings, jsonStrings, type StringToken } from "./json-tokens.js";
import { type PositionMap, shifted, tokenPositions } from "./position-map.js";
import { type PayloadKind, payloadKind } from "./provider-payloads.js";

/** A decoded text of a line and the way back to the line's raw positions. */
export interface Segment {
  readonly text: string;
  /** The raw line position of decoded position `pos` (`0 ≤ pos ≤ text.length`). */
  readonly toRaw: PositionMap;
  /**
   * Part of a provider signature: scanned by the rules, but not by the detectors that guess
   * (the entropy detector, rules without literals), to which base64 looks like a secret.
   */
  readonly payload: boolean;
}

/** An object member with a string value, decoded: what rules needing a name before a value see. */
export interface Member {
  readonly name: string;
  readonly value: string;
}

/** What a line holds for the rules. */
export interface LineSegments {
  readonly segments: readonly Segment[];
  readonly members: readonly Member[];
  /** Whether the line is JSON (else it is one raw segment and its unescaped layers). */
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

/**
 * How deep JSON inside strings is followed: in effect without limit. Each level escapes the
 * quotes of the next once more, so a string at depth d needs more than 2^(d-1) characters in
 * the file, and no string a JavaScript engine holds (under 2^30 characters) reaches depth 32;
 * the bound only keeps a hostile line from recursing without end.
 */
export const MAX_NESTING = 32;

const BOM = 0xfeff;

/** What the segments and members of a line are collected into. */
interface Collector {
  readonly segments: Segment[];
  readonly members: Member[];
}

/** What a string of a line is: skipped, or a segment (a signature's marked `payload`). */
type Classify = (token: StringToken, strings: JsonStrings) => PayloadKind | "structural";

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

/** The segments and members of the string literals of `json` (valid JSON), mapped by `toRaw`. */
function jsonSegments(
  json: string,
  from: number,
  toRaw: PositionMap,
  nesting: number,
  payload: boolean,
  classify: Classify | undefined,
  out: Collector,
): void {
  const strings = jsonStrings(json, from);
  let key: { token: StringToken; name: string } | undefined;
  for (const token of strings.tokens) {
    const kind = classify?.(token, strings) ?? "text";
    if (kind === "opaque" || kind === "structural") continue;
    const text = decodeLiteral(json, token.start, token.end, token.escaped);
    if (token.isKey) key = { token, name: text };
    else if (key !== undefined && key.token.container === token.container) {
      out.members.push({ name: key.name, value: text });
    }
    const map = tokenPositions(json, token, text.length, toRaw);
    textSegments(text, map, nesting, payload || kind === "signature", out);
  }
}

/**
 * The segments of one decoded string: itself, or the strings of the JSON it holds, or — when
 * some of its lines are JSON — those lines' strings and the text between them.
 */
function textSegments(
  text: string,
  toRaw: PositionMap,
  nesting: number,
  payload: boolean,
  out: Collector,
): void {
  if (nesting < MAX_NESTING && text.length > 1) {
    if (isJsonContainer(text)) {
      jsonSegments(text, 0, toRaw, nesting + 1, payload, undefined, out);
      return;
    }
    if (
      text.includes("\n{") ||
      text.includes("\n[") ||
      text.startsWith("{") ||
      text.startsWith("[")
    ) {
      if (jsonLines(text, toRaw, nesting, payload, out)) return;
    }
  }
  out.segments.push({ text, toRaw, payload });
}

/**
 * Splits a multi-line text into its JSON lines (followed into) and the text between them (kept
 * together, so a multi-line secret in plain text stays one segment). Returns false, adding
 * nothing, when no line is JSON.
 */
function jsonLines(
  text: string,
  toRaw: PositionMap,
  nesting: number,
  payload: boolean,
  out: Collector,
): boolean {
  const parts: Collector = { segments: [], members: [] };
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
        parts.segments.push({
          text: text.slice(from, lineStart),
          toRaw: shifted(toRaw, from),
          payload,
        });
      }
      const line = text.slice(lineStart, lineEnd);
      jsonSegments(line, 0, shifted(toRaw, lineStart), nesting + 1, payload, undefined, parts);
      plainStart = lineEnd;
    }
    lineStart = lineEnd + 1;
  }
  if (!found) return false;
  if (plainStart < text.length) {
    parts.segments.push({
      text: text.slice(plainStart),
      toRaw: shifted(toRaw, plainStart),
      payload,
    });
  }
  out.segments.push(...parts.segments);
  out.members.push(...parts.members);
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
    const layers = unescapedLayers(line, MAX_NESTING).map((l) => ({ ...l, payload: false }));
    return {
      segments: [{ text: line, toRaw: identity, payload: false }, ...layers],
      members: [],
      json: false,
      entryId: undefined,
      type: undefined,
    };
  }
  const out: Collector = { segments: [], members: [] };
  const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
  const classify: Classify = (t, strings) =>
    isObject && structural(t) ? "structural" : payloadKind(t, strings);
  jsonSegments(line, from, identity, 0, false, classify, out);
  const record = isObject ? (value as Record<string, unknown>) : undefined;
  return {
    segments: out.segments,
    members: out.members,
    json: true,
    entryId: typeof record?.id === "string" ? record.id : undefined,
    type: typeof record?.type === "string" ? record.type : undefined,
  };
}
