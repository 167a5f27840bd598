/**
 * Core's listing fold (`SessionInfoFold`, the one the file store's listing runs), kept per
 * session as it goes: every write folds the lines it adds, in order, and saves the fold's
 * state on the session row in the same statement, so a listing only finishes saved states
 * instead of reading every line again. The fold's state is its public fields, saved as they
 * are (structured clone, so any JSON value a header holds comes back exactly); the texts it
 * collects are saved with the line each came from, so a state stays small however long the
 * session grows, and the listing hands them back to the fold, which joins them by its rule.
 */
import { deserialize, serialize } from "node:v8";
import type { SessionInfo } from "@pi-sessions/core";
import { JsonlScanner, SessionInfoFold } from "@pi-sessions/core/internal";
import type { StoredLine } from "./lines.js";

/** What is saved of a fold: its fields (texts aside), and whether it stopped reading. */
interface SavedFold {
  /** {@link FOLD_FORMAT} of the code that saved it. */
  readonly format: string;
  readonly fields: Record<string, unknown>;
  /** The first record was not a header: the fold read no further and lists nothing. */
  readonly stopped: boolean;
}

/**
 * The fold's field names: hosts sharing a database may run other versions of this code (or of
 * Node, whose serialisation format may move on), and a state saved by another fold must not be
 * resumed into this one. Such a state is treated as missing: the session is folded from its
 * lines, which every version reads alike.
 */
const FOLD_FORMAT = Object.keys(new SessionInfoFold()).sort().join(",");

/** The saved fold, or undefined when this code cannot resume it. */
function restore(saved: Buffer): SavedFold | undefined {
  try {
    const value = deserialize(saved) as Partial<SavedFold> | null;
    return value?.format === FOLD_FORMAT && value.fields !== undefined
      ? (value as SavedFold)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The fold of one session's lines, fed one stored line at a time. */
export class LineFold {
  private readonly fold = new SessionInfoFold();
  private readonly scanner = new JsonlScanner(this.fold);
  private stopped = false;

  /**
   * The fold at a saved state (`null`: at the start of a session); undefined when the state
   * cannot be resumed here (see {@link FOLD_FORMAT}).
   */
  static resume(saved: Buffer | null): LineFold | undefined {
    const fold = new LineFold();
    if (saved === null) return fold;
    const restored = restore(saved);
    if (restored === undefined) return undefined;
    Object.assign(fold.fold, restored.fields);
    fold.stopped = restored.stopped;
    return fold;
  }

  /**
   * Folds the next line (without its `\n`, as stored; never holding one) and returns the
   * texts the fold collected from it, as JSON, or `null` when none.
   */
  line(text: string): string | null {
    if (this.stopped) return null;
    // A stored line never holds `\n`, so each push hands the fold exactly this one line.
    if (!this.scanner.push(`${text}\n`)) this.stopped = true;
    const texts = this.fold.texts;
    if (texts.length === 0) return null;
    const json = JSON.stringify(texts);
    // Kept with the line, not in the state: the state stays small however long the session.
    texts.length = 0;
    return json;
  }

  /** The fold's state now, to save with the lines it has seen. */
  save(): Buffer {
    const { texts: _texts, ...fields } = this.fold;
    return serialize({ format: FOLD_FORMAT, fields, stopped: this.stopped } satisfies SavedFold);
  }

  /**
   * The info of a saved state, given the texts of its lines (see {@link parseTexts}), in
   * order; `null` when the lines are not a session, undefined when the state cannot be
   * resumed here (the caller folds the lines instead).
   */
  static info(
    saved: Buffer,
    texts: readonly string[],
    location: string,
    updatedAt: Date,
  ): SessionInfo | null | undefined {
    const resumed = LineFold.resume(saved);
    if (resumed === undefined) return undefined;
    if (resumed.stopped) return null;
    for (const text of texts) resumed.fold.texts.push(text);
    return resumed.fold.finish(location, updatedAt);
  }
}

/** The texts of lines, in order, from their JSON (as `LineFold.line` gives it) joined by `,`. */
export function parseTexts(joined: string | null): string[] {
  if (joined === null) return [];
  return (JSON.parse(`[${joined}]`) as string[][]).flat();
}

/** A stored line as the file store's reader decodes it (UTF-8, malformed bytes replaced). */
export function lineText(line: StoredLine): string {
  return line.line ?? (line.raw as Buffer).toString("utf8");
}

/** The texts of each line (as `LineFold.line` gives them) and the state after them all. */
export interface FoldedLines {
  readonly texts: (string | null)[];
  readonly state: Buffer;
}

/** Folds a session's lines from `fold` on (from its start unless given). */
export function foldLines(lines: readonly StoredLine[], fold = new LineFold()): FoldedLines {
  const texts = lines.map((l) => fold.line(lineText(l)));
  return { texts, state: fold.save() };
}
