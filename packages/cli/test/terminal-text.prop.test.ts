/**
 * The terminal-safety rule and the writer that applies it, as laws over any string: nothing a
 * terminal acts on survives, plain text is untouched, the rule is idempotent, JSON stays the
 * same value, and colours are ours only — a string cannot forge a style marker.
 */

import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Terminal } from "../src/io/terminal-output.js";
import {
  hasTerminalControls,
  jsonForTerminal,
  terminalSafe,
  terminalSafeText,
} from "../src/io/terminal-text.js";

/** Independent of the module: every character a terminal may act on or reorder text by. */
const STEERS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the test.
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Strings rich in controls, escapes, bidi characters and the writer's own marker brackets. */
const hostile = fc
  .array(
    fc.oneof(
      fc.string(),
      fc.constantFrom(
        "\x1b]52;c;aGk=\x07",
        "\x1b]0;title\x07",
        "\x1b[2J",
        "\x00",
        "\r",
        "\n",
        "\t",
        "\x9b31m",
        "\u202e",
        "\u2066",
        "\x7f",
        "\ue000",
        "\ue001",
        "31",
      ),
      fc.integer({ min: 0, max: 0x2100 }).map((c) => String.fromCharCode(c)),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(""));

const PARAMS = fcOptions(1000);

describe("terminalSafe", () => {
  it(`leaves nothing that steers a terminal, is idempotent, and keeps plain text (numRuns ${PARAMS.numRuns})`, () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const safe = terminalSafe(text);
        expect(STEERS.test(safe)).toBe(false);
        expect(hasTerminalControls(safe)).toBe(false);
        expect(terminalSafe(safe)).toBe(safe);
        if (!STEERS.test(text)) expect(safe).toBe(text);
        expect(hasTerminalControls(text)).toBe(STEERS.test(text));
      }),
      PARAMS,
    );
  });

  it("shows C0 and DEL as control pictures (one column each) and the rest as code points", () => {
    expect(terminalSafe("a\x1b]52;c;aGk=\x07b\x00\r\n\t\x7f")).toBe("a␛]52;c;aGk=␇b␀␍␊␉␡");
    expect(terminalSafe("\x9b31m\u202eevil\u2066")).toBe("\\u{9b}31m\\u{202e}evil\\u{2066}");
  });

  it(`terminalSafeText keeps newlines and tabs, turns CRLF into LF, and shows the rest (numRuns ${PARAMS.numRuns})`, () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const safe = terminalSafeText(text);
        expect(STEERS.test(safe.replace(/[\n\t]/g, ""))).toBe(false);
        expect(safe.split("\n").length).toBe(text.replace(/\r\n/g, "\n").split("\n").length);
      }),
      PARAMS,
    );
  });
});

describe("jsonForTerminal", () => {
  it(`is the same JSON value with no character that steers a terminal (numRuns ${PARAMS.numRuns})`, () => {
    fc.assert(
      fc.property(fc.dictionary(hostile, hostile, { maxKeys: 4 }), (value) => {
        const json = jsonForTerminal(JSON.stringify(value, null, 2));
        expect(JSON.parse(json)).toEqual(value);
        expect(STEERS.test(json.replace(/\n/g, ""))).toBe(false);
      }),
      PARAMS,
    );
  });
});

describe("Terminal (the writer)", () => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: our SGR codes are what is looked for.
  const SGR = /\x1b\[\d+m/g;

  it(`applies our styles around safe text and nothing from the data (numRuns ${PARAMS.numRuns})`, () => {
    const terminal = new Terminal(true);
    const c = terminal.colors;
    fc.assert(
      fc.property(hostile, hostile, (a, b) => {
        const line = terminal.render(`${c.bold(a)} ${c.dim(`${c.red(b)}!`)}`);
        // Every escape left is one of our SGR codes; without them, the text is the data's.
        expect(STEERS.test(line.replace(SGR, ""))).toBe(false);
        expect(line.replace(SGR, "")).toBe(`${terminalSafe(a)} ${terminalSafe(b)}!`);
        expect(line.startsWith("\x1b[1m")).toBe(true);
      }),
      PARAMS,
    );
  });

  it("without colours the styles are identities and the writer only makes text safe", () => {
    const terminal = new Terminal(false);
    expect(terminal.colors.red("x\x1b")).toBe("x\x1b");
    const written: string[] = [];
    const stream = terminal.stream({ write: (t: string) => written.push(t) });
    stream.writeLine("a\nb\x1b");
    stream.writeLines(["c\td", "e"]);
    stream.write("f\x07\ng\n");
    expect(written).toEqual(["a␊b␛\n", "c␉d\ne\n", "f␇\ng\n"]);
  });
});
