/**
 * The string literals of a valid JSON text, in source order, with where each sits: its span in
 * the text, whether it is a member name, the member name it is the value of, and its container.
 * Only strings can hold a secret (numbers, `true`, `false`, `null` and punctuation cannot), and
 * a replacement inside one literal leaves every other byte of the text as it was: key order,
 * number spellings, whitespace, escapes elsewhere. `JSON.parse` cannot say where a value was
 * written (and reorders integer-like keys), so the text is walked here instead; it is only ever
 * given text that `JSON.parse` accepted.
 */

/** One string literal of a JSON text. */
export interface StringToken {
  /** Index of the opening quote. */
  readonly start: number;
  /** Index after the closing quote. */
  readonly end: number;
  /** Whether the literal contains a backslash (its decoded value differs from its body). */
  readonly escaped: boolean;
  /** A member name (an object key) rather than a value. */
  readonly isKey: boolean;
  /** For a value: the name of the member it belongs to (an array's for its elements). */
  readonly member: string | undefined;
  /** Nesting depth: 1 for a member of the top-level object or array. */
  readonly depth: number;
  /** The container's number; {@link JsonStrings.containerType} tells its `type` member. */
  readonly container: number;
}

/** The string literals of a JSON text and what is known of the containers holding them. */
export interface JsonStrings {
  readonly tokens: readonly StringToken[];
  /** The string value of each object's `type` member, by container number. */
  readonly containerType: ReadonlyMap<number, string>;
  /**
   * The member each container is the value of, by container number (an array's elements
   * inherit the array's: each block of `content: [...]` is in `content`).
   */
  readonly containerMember: ReadonlyMap<number, string>;
  /** The container holding each container, by container number (none for the outermost). */
  readonly containerParent: ReadonlyMap<number, number>;
}

interface Frame {
  readonly object: boolean;
  readonly id: number;
  /** The member name the container itself is the value of. */
  readonly member: string | undefined;
  expectKey: boolean;
  lastKey: string | undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the quote closing the literal opened at `open`, or -1 when it is unclosed. */
export function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at !== -1) {
    let slashes = 0;
    for (let k = at - 1; k > open && text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

/** The decoded value of the literal at `[start, end)`. */
export function decodeLiteral(text: string, start: number, end: number, escaped: boolean): string {
  return escaped ? (JSON.parse(text.slice(start, end)) as string) : text.slice(start + 1, end - 1);
}

/** The string literals of `text` (valid JSON) from index `from` on. */
export function jsonStrings(text: string, from = 0): JsonStrings {
  const tokens: StringToken[] = [];
  const containerType = new Map<number, string>();
  const containerMember = new Map<number, string>();
  const containerParent = new Map<number, number>();
  const stack: Frame[] = [];
  let containers = 0;
  const n = text.length;
  let i = from;
  let nextSlash = text.indexOf("\\", from);
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const close = closingQuote(text, i);
      if (close === -1) break; // not valid JSON after all: nothing more to find
      const end = close + 1;
      // The next backslash, found once and reused until passed: one indexOf per backslash,
      // not one per literal (which would be quadratic on a long line of short strings).
      if (nextSlash !== -1 && nextSlash < i) nextSlash = text.indexOf("\\", i);
      const escaped = nextSlash !== -1 && nextSlash < close;
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        tokens.push({
          start: i,
          end,
          escaped,
          isKey: true,
          member: undefined,
          depth: stack.length,
          container: top.id,
        });
        top.lastKey = decodeLiteral(text, i, end, escaped);
        top.expectKey = false;
      } else {
        const member = top === undefined ? undefined : top.object ? top.lastKey : top.member;
        tokens.push({
          start: i,
          end,
          escaped,
          isKey: false,
          member,
          depth: stack.length,
          container: top?.id ?? -1,
        });
        if (top?.object && top.lastKey === "type") {
          containerType.set(top.id, decodeLiteral(text, i, end, escaped));
        }
      }
      i = end;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      // `{` or `[`
      const top = stack[stack.length - 1];
      const member = top === undefined ? undefined : top.object ? top.lastKey : top.member;
      const id = containers++;
      if (member !== undefined) containerMember.set(id, member);
      if (top !== undefined) containerParent.set(id, top.id);
      stack.push({ object: c === 0x7b, id, member, expectKey: c === 0x7b, lastKey: undefined });
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top?.object) top.expectKey = true;
    }
    i++;
  }
  return { tokens, containerType, containerMember, containerParent };
}
