/**
 * Text from session files is data, and a terminal obeys data: an escape sequence in a session
 * name can retitle the window, write the clipboard (OSC 52) or hide what follows; a carriage
 * return or a bidi override can make a line say something else than it holds; a newline in a
 * cwd breaks a table. So every character that steers a terminal is shown as a visible stand-in
 * instead — the one rule here, which the output writer applies to every line (see
 * `terminal-output.ts`), so no command can forget it:
 *
 * - C0 controls U+0000–U+001F (NUL, BEL, BS, TAB, LF, CR, ESC, …) become their Unicode
 *   Control Pictures, one column wide like the character they stand for: `␀ ␇ ␈ ␉ ␊ ␍ ␛`;
 * - DEL (U+007F) becomes `␡`;
 * - C1 controls U+0080–U+009F (CSI, OSC, … in their 8-bit form) and the invisible
 *   characters that reorder or break text — bidi embeddings, overrides and isolates
 *   (U+202A–U+202E, U+2066–U+2069), the LRM, RLM and ALM marks (U+200E, U+200F, U+061C), the
 *   line and paragraph separators (U+2028, U+2029) — become `\u{…}` escapes (`\u{9b}`,
 *   `\u{202e}`), which name the code point.
 *
 * Everything else passes unchanged, so the rule is idempotent and plain text is untouched.
 * `--json` output stays exact instead (see {@link jsonForTerminal}).
 */

const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, "g");

/** The visible stand-in of one unsafe character. */
function standIn(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `\\u{${code.toString(16)}}`;
}

/** `text` with every character that steers a terminal shown visibly (the module's rule). */
export function terminalSafe(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, standIn) : text;
}

/** {@link UNSAFE} but newline and tab. */
const UNSAFE_IN_TEXT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * {@link terminalSafe} for multi-line text (an export's content): newlines and tabs stay,
 * CRLF becomes LF, every other character of the rule is shown visibly.
 */
export function terminalSafeText(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(UNSAFE_IN_TEXT, standIn);
}

/** Whether `text` holds a character {@link terminalSafe} would replace. */
export function hasTerminalControls(text: string): boolean {
  return UNSAFE.test(text);
}

/** Characters JSON.stringify leaves raw that a terminal may still act on or reorder by. */
const JSON_RAW_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text that is safe on a terminal and means exactly the same: `JSON.stringify` already
 * writes C0 controls as `\u001b`-style escapes; DEL, C1 controls and the bidi characters it
 * leaves raw are written as `\u` escapes too. They can only occur inside strings, where an
 * escape stands for the same character, so a parser reads the identical value.
 */
export function jsonForTerminal(json: string): string {
  return json.replace(
    JSON_RAW_UNSAFE,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
