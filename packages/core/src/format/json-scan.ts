/**
 * Checks that a line of bytes is a JSON object `JSON.parse` accepts, without building it, and
 * finds where its top-level `type`, `id` and `parentId` values lie: what a load must know of
 * every entry (SPEC §2.1 lines, the record rules of record-rules.ts, the tree), leaving the body
 * for when something reads it. A byte loop: no string is made, strings are skipped through a
 * class table, containers are tracked on a small stack. Anything it is not sure of (a field with
 * an escape or of another JSON type, a repeated field, any syntax error) answers `false`, and
 * the caller parses the line as before: the fast path only ever says yes to what JSON.parse
 * would accept with exactly the values it reports.
 */

import {
  FALSE,
  isSpace,
  NULL,
  QUOTE,
  skipLiteral,
  skipNumber,
  skipString,
  TRUE,
  wordsOf,
} from "./json-skip.js";

/** Where a scanned line's structural values are (byte offsets into the buffer). */
export interface LineHead {
  /** `type` string value span (`typeStart` -1: no `type` key). */
  typeStart: number;
  typeEnd: number;
  /** `id` string value span (`idStart` -1: no `id` key). */
  idStart: number;
  idEnd: number;
  /** `parentId`: 0 absent, 1 null, 2 a string (span below). */
  parentKind: 0 | 1 | 2;
  parentStart: number;
  parentEnd: number;
  /**
   * The `role` string of the top-level `message` object, when it has exactly one `role` key
   * and its value is a string without escapes (`roleStart` -1 otherwise).
   */
  roleStart: number;
  roleEnd: number;
}

/** A fresh {@link LineHead} to reuse across lines. */
export function newLineHead(): LineHead {
  return {
    typeStart: -1,
    typeEnd: -1,
    idStart: -1,
    idEnd: -1,
    parentKind: 0,
    parentStart: -1,
    parentEnd: -1,
    roleStart: -1,
    roleEnd: -1,
  };
}

/** Which structural key a top-level key is: 1 type, 2 id, 3 parentId, 0 another. */
function keyKind(b: Uint8Array, start: number, end: number): number {
  const n = end - start;
  if (n === 2) return b[start] === 0x69 && b[start + 1] === 0x64 ? 2 : 0;
  if (n === 4) {
    return b[start] === 0x74 &&
      b[start + 1] === 0x79 &&
      b[start + 2] === 0x70 &&
      b[start + 3] === 0x65
      ? 1
      : 0;
  }
  if (n === 8) {
    const p = "parentId";
    for (let k = 0; k < 8; k++) if (b[start + k] !== p.charCodeAt(k)) return 0;
    return 3;
  }
  return 0;
}

/** Whether `b[start, end)` spells `word` (ASCII). */
function spells(b: Uint8Array, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[start + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** Whether the last string skipped held an escape (one object, not one per string). */
const escaped = { value: false };

/** Container stack, reused: 1 object, 2 array. Deep nesting grows it. */
let stack = new Uint8Array(64);

/**
 * Whether `b[start, end)` (one line, without its `\n`) is exactly one JSON object as
 * `JSON.parse` reads it (surrounding whitespace allowed) whose top-level `type` and `id` are
 * strings without escapes when present, and whose `parentId` is null or such a string when
 * present, none of the three repeated. Fills `head` with where they are.
 */
export function scanObjectLine(b: Uint8Array, start: number, end: number, head: LineHead): boolean {
  let i = start;
  while (i < end && isSpace(b[i] as number)) i++;
  if (i >= end || b[i] !== 0x7b) return false;
  head.typeStart = head.idStart = head.parentStart = head.roleStart = -1;
  // The depth of the top-level `message` object while inside it (-1 outside), whether a
  // `message` key was seen, and whether its `role` is known (false once it is not plain).
  let messageDepth = -1;
  let messageSeen = false;
  let roleSeen = false;
  const words = wordsOf(b);
  const base = b.byteOffset;
  head.parentKind = 0;
  let depth = 0;
  stack[depth++] = 1;
  i++;
  // Whether the container just opened may close at once (`{}`, `[]`).
  let mayClose = true;
  for (;;) {
    while (i < end && isSpace(b[i] as number)) i++;
    if (i >= end) return false;
    let c = b[i] as number;
    const inObject = stack[depth - 1] === 1;
    if (mayClose && (c === 0x7d || c === 0x5d)) {
      if (c !== (inObject ? 0x7d : 0x5d)) return false;
      if (depth === messageDepth) messageDepth = -1;
      i++;
      depth--;
    } else {
      // One member: a key and colon in an object, then a value.
      let kind = 0;
      let isMessage = false;
      let isRole = false;
      if (inObject) {
        if (c !== QUOTE) return false;
        const keyStart = i + 1;
        escaped.value = false;
        i = skipString(b, words, base, keyStart, end, escaped);
        if (i < 0) return false;
        // Only top-level keys matter; an escaped key is never one of ours as written by pi.
        if (depth === 1) {
          kind = escaped.value ? -1 : keyKind(b, keyStart, i - 1);
          if (kind === 0 && spells(b, keyStart, i - 1, "message")) {
            // JSON.parse keeps the last of repeated keys: leave such a line to it.
            if (messageSeen) return false;
            messageSeen = isMessage = true;
          }
        } else if (depth === messageDepth) {
          if (escaped.value) head.roleStart = -2;
          else if (spells(b, keyStart, i - 1, "role")) {
            // A repeated role is not known here (JSON.parse keeps the last).
            if (roleSeen) head.roleStart = -2;
            roleSeen = isRole = true;
          }
        }
        while (i < end && isSpace(b[i] as number)) i++;
        if (i >= end || b[i] !== 0x3a) return false;
        i++;
        while (i < end && isSpace(b[i] as number)) i++;
        if (i >= end) return false;
        c = b[i] as number;
        // A key written with escapes might spell one of ours: let JSON.parse decide.
        if (kind === -1) return false;
      }
      if (c === QUOTE) {
        const valueStart = i + 1;
        escaped.value = false;
        i = skipString(b, words, base, valueStart, end, escaped);
        if (i < 0) return false;
        if (isRole && head.roleStart === -1) {
          if (escaped.value) head.roleStart = -2;
          else {
            head.roleStart = valueStart;
            head.roleEnd = i - 1;
          }
        } else if (isRole) head.roleStart = -2;
        if (kind !== 0) {
          if (escaped.value) return false;
          if (kind === 1) {
            if (head.typeStart >= 0) return false;
            head.typeStart = valueStart;
            head.typeEnd = i - 1;
          } else if (kind === 2) {
            if (head.idStart >= 0) return false;
            head.idStart = valueStart;
            head.idEnd = i - 1;
          } else {
            if (head.parentKind !== 0) return false;
            head.parentKind = 2;
            head.parentStart = valueStart;
            head.parentEnd = i - 1;
          }
        }
      } else if (c === 0x7b || c === 0x5b) {
        if (kind !== 0) return false;
        if (depth === stack.length) {
          const grown = new Uint8Array(stack.length * 2);
          grown.set(stack);
          stack = grown;
        }
        stack[depth++] = c === 0x7b ? 1 : 2;
        if (isMessage && c === 0x7b) messageDepth = depth;
        if (isRole) head.roleStart = -2;
        i++;
        mayClose = true;
        continue;
      } else {
        if (isRole) head.roleStart = -2;
        if (c === 0x6e) {
          i = skipLiteral(b, i, end, NULL);
          if (kind === 3 && i >= 0) {
            if (head.parentKind !== 0) return false;
            head.parentKind = 1;
          } else if (kind !== 0) return false;
        } else if (kind !== 0) return false;
        else if (c === 0x74) i = skipLiteral(b, i, end, TRUE);
        else if (c === 0x66) i = skipLiteral(b, i, end, FALSE);
        else i = skipNumber(b, i, end);
        if (i < 0) return false;
      }
    }
    // After a value (or a closed container): `,` for the next member, or the closing bracket.
    for (;;) {
      if (depth === 0) {
        while (i < end && isSpace(b[i] as number)) i++;
        if (head.roleStart === -2) head.roleStart = -1;
        return i === end;
      }
      while (i < end && isSpace(b[i] as number)) i++;
      if (i >= end) return false;
      const d = b[i] as number;
      const closer = stack[depth - 1] === 1 ? 0x7d : 0x5d;
      if (d === 0x2c) {
        i++;
        mayClose = false;
        break;
      }
      if (d !== closer) return false;
      if (depth === messageDepth) messageDepth = -1;
      i++;
      depth--;
    }
  }
}
