/**
 * The only way text reaches the terminal: streams that make every line terminal-safe
 * (`terminalSafe`) and colour functions whose styles survive that. A colour function cannot
 * emit a real escape sequence (the writer would show it as `␛`), so it emits a marker holding
 * a random nonce chosen when the program starts; after making a line safe, the writer turns
 * exactly those markers into SGR codes. Session data was written before the nonce existed, so
 * it cannot forge one: whatever a file holds is shown, and only our own styles are applied.
 * Commands never hold the raw streams: `CommandContext` gives these, plus JSON and export
 * writers that keep data exact (see `runtime.ts`).
 */

import type { CliIo, OutputStream } from "./io.js";
import { terminalSafe } from "./terminal-text.js";

/** SGR open and close codes of the styles the commands use. */
const STYLES: { readonly [K in keyof Colors]: readonly [number, number] } = {
  bold: [1, 22],
  dim: [2, 22],
  inverse: [7, 27],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  magenta: [35, 39],
  cyan: [36, 39],
};

/** Colour functions; identity functions when colours are off. */
export interface Colors {
  /** Headers, the path to the leaf. */
  readonly bold: (text: string) => string;
  /** What is less important: ids, paths, other branches. */
  readonly dim: (text: string) => string;
  /** The leaf marker. */
  readonly inverse: (text: string) => string;
  /** Bad files. */
  readonly red: (text: string) => string;
  /** Good news: ok, repaired, labels. */
  readonly green: (text: string) => string;
  /** Problem kinds, compactions. */
  readonly yellow: (text: string) => string;
  /** Branch summaries. */
  readonly magenta: (text: string) => string;
  /** Session names. */
  readonly cyan: (text: string) => string;
}

/** Each style's function, made from its SGR codes. */
function stylesBy(make: (codes: readonly [number, number]) => (text: string) => string): Colors {
  const { bold, dim, inverse, red, green, yellow, magenta, cyan } = STYLES;
  return {
    bold: make(bold),
    dim: make(dim),
    inverse: make(inverse),
    red: make(red),
    green: make(green),
    yellow: make(yellow),
    magenta: make(magenta),
    cyan: make(cyan),
  };
}

/** A stream whose every write is made terminal-safe, with a line-at-a-time form. */
export interface TerminalStream extends OutputStream {
  /** Writes text made safe line by line: its `\n`s stay, every other control is shown. */
  write(text: string): unknown;
  /** Writes one line: a newline inside it is shown as `␊`; a newline ends it. */
  writeLine(line: string): void;
  /** Writes lines (each as {@link TerminalStream.writeLine} would) in one write. */
  writeLines(lines: readonly string[]): void;
}

/** The process surface with terminal-safe streams (what commands see). */
export interface TerminalIo extends CliIo {
  /** stdout, every line made terminal-safe. */
  readonly stdout: TerminalStream;
  /** stderr, every line made terminal-safe. */
  readonly stderr: TerminalStream;
}

const RAW = Symbol("raw stream");

/**
 * The stream under a terminal stream (itself for any other): for output that is ours byte for
 * byte — a progress bar's `\r` and erase sequence — never for text that holds data.
 */
export function rawStream(stream: OutputStream): OutputStream {
  return (stream as { [RAW]?: OutputStream })[RAW] ?? stream;
}

/** Colours, and the writer that applies them, for one run of the program. */
export class Terminal {
  /** The styles to wrap text in (their markers become SGR codes when written). */
  readonly colors: Colors;
  private readonly marker: RegExp | undefined;

  constructor(colorsOn: boolean) {
    if (!colorsOn) {
      const same = (text: string) => text;
      this.colors = stylesBy(() => same);
      return;
    }
    // Private-use brackets around the nonce: the writer's safety rule leaves all of it as is.
    // `node:crypto` loaded only here, for a terminal: into a pipe (`ls` in a script) its load
    // would be a tenth of the command's own start-up.
    const { randomBytes } = process.getBuiltinModule("node:crypto");
    const nonce = randomBytes(12).toString("hex");
    const mark = (code: number) => `\uE000${nonce}${code}\uE001`;
    this.marker = new RegExp(`\uE000${nonce}(\\d+)\uE001`, "g");
    const style = ([open, close]: readonly [number, number]) => {
      const o = mark(open);
      const c = mark(close);
      // A nested style that closes with the same code (bold inside dim) reopens ours after it.
      return (text: string) => `${o}${text.includes(c) ? text.split(c).join(c + o) : text}${c}`;
    };
    this.colors = stylesBy(style);
  }

  /** One line (or a piece of one) made safe, then our colour markers turned into SGR codes. */
  render(text: string): string {
    const safe = terminalSafe(text);
    const marker = this.marker;
    return marker === undefined || !safe.includes("\uE000")
      ? safe
      : safe.replace(marker, "\x1b[$1m");
  }

  /** A terminal-safe stream over `raw`. */
  stream(raw: OutputStream): TerminalStream {
    const render = (text: string) => this.render(text);
    return {
      get isTTY() {
        return raw.isTTY;
      },
      get columns() {
        return raw.columns;
      },
      write: (text) => raw.write(text.split("\n").map(render).join("\n")),
      writeLine: (line) => {
        raw.write(`${render(line)}\n`);
      },
      writeLines: (lines) => {
        if (lines.length > 0) raw.write(`${lines.map(render).join("\n")}\n`);
      },
      [RAW]: raw,
    } as TerminalStream;
  }

  /** `io` with terminal-safe streams. */
  io(io: CliIo): TerminalIo {
    return { ...io, stdout: this.stream(io.stdout), stderr: this.stream(io.stderr) };
  }
}
