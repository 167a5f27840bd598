/**
 * Core's listing fold (`SessionInfoFold`, the one the file store's listing runs), kept per
 * session as it goes: every write folds the lines it adds, in order, keeps the texts the fold
 * collected from each line with that line, and now and then saves the fold's state on the
 * session row (`info_state`, as of its first `info_seq` lines), so a listing resumes a saved
 * state, hands it the texts of the lines it covers and folds only the lines after it, instead
 * of reading every line again. The state is kept as core's codec gives it, `{ name, version,
 * state }` (SPEC §14 F2), as JSON text in the column; this package never reads inside it. A
 * state of another name or version (a new release of the rule, or a host of another one
 * sharing the database) is treated as missing: the session is folded from its lines, which
 * every version reads alike, and the next writer saves the state and texts again. The rule
 * that makes this exact: a saved state and the texts stored with the lines it covers are
 * always the fold over those lines under the state's version; the lines after it may carry
 * any texts (the listing and the next writer fold them again).
 */
import type { SessionInfo } from "@pi-sessions/core";
import {
  JsonlScanner,
  type JsonRecord,
  restoreFoldState,
  type SavedFoldState,
  SessionInfoFold,
  saveFoldState,
  sessionInfoCodec,
} from "@pi-sessions/core/internal";
import { type LineRow, type StoredLine, serialisedRow } from "./lines.js";

/**
 * The fold's state as the column keeps it, or undefined when this code cannot resume it:
 * another fold's or version's (see the module notes), or not a saved fold state at all (the
 * binary states of releases before the codecs).
 */
function restore(saved: Buffer) {
  let parsed: Partial<SavedFoldState>;
  try {
    parsed = JSON.parse(saved.toString("utf8")) as Partial<SavedFoldState>;
  } catch {
    return undefined;
  }
  const { name, version, state } = parsed ?? {};
  if (typeof name !== "string" || typeof version !== "number" || typeof state !== "string") {
    return undefined;
  }
  return restoreFoldState(sessionInfoCodec, { name, version, state });
}

/** The fold of one session's lines, fed one stored line at a time. */
export class LineFold {
  private readonly scanner: JsonlScanner;
  private stopped = false;
  private parsed: JsonRecord | undefined;

  private constructor(private readonly fold: SessionInfoFold) {
    // The fold's visitor, keeping the record of the line it is handed: the writer reads its
    // query columns from that record instead of parsing the line a second time.
    this.scanner = new JsonlScanner({
      record: (record) => {
        this.parsed = record;
        return fold.record(record);
      },
      issue: () => fold.issue(),
    });
  }

  /**
   * The record of the line `line` last folded, as the fold parsed it; undefined when that line
   * is no JSON object or the fold had stopped (it parses nothing then). Read it right after
   * `line`: the next line replaces it.
   */
  get lastRecord(): JsonRecord | undefined {
    return this.parsed;
  }

  /** The fold at the start of a session. */
  static fresh(): LineFold {
    return new LineFold(new SessionInfoFold());
  }

  /**
   * The fold at a saved state (`null`: at the start of a session); undefined when the state
   * cannot be resumed here (see {@link restore}).
   */
  static resume(saved: Buffer | null): LineFold | undefined {
    if (saved === null) return LineFold.fresh();
    const restored = restore(saved);
    return restored && new LineFold(SessionInfoFold.resume(restored, ""));
  }

  /**
   * Folds the next line (without its `\n`, as stored; never holding one) and returns the
   * texts the fold collected from it, as JSON, or `null` when none.
   */
  line(text: string): string | null {
    this.feed(text);
    const texts = this.fold.texts;
    if (texts.length === 0) return null;
    const json = JSON.stringify(texts);
    // Kept with the line, not in the state: the state stays small however long the session.
    texts.length = 0;
    return json;
  }

  /** Folds the next line, leaving what it collected among the fold's texts. */
  private feed(text: string): void {
    this.parsed = undefined;
    if (this.stopped) return;
    // A stored line never holds `\n`, so each push hands the fold exactly this one line.
    if (!this.scanner.push(`${text}\n`)) this.stopped = true;
  }

  /**
   * The fold's state now, to save with the lines it has seen; `null` when none is saved: the
   * lines are no session (their first record is no header), or the codec cannot hold the
   * state exactly. A listing then folds the lines themselves.
   */
  save(): Buffer | null {
    if (this.stopped) return null;
    const saved = saveFoldState(sessionInfoCodec, this.fold.state());
    return saved && Buffer.from(JSON.stringify(saved), "utf8");
  }

  /**
   * The info of a session's lines folded from their start, as the file store's listing folds
   * a file (`null`: the lines are not a session).
   */
  static ofLines(
    lines: readonly StoredLine[],
    location: string,
    updatedAt: Date,
  ): SessionInfo | null {
    const folded = LineFold.fresh();
    for (const line of lines) folded.feed(lineText(line));
    return folded.stopped ? null : folded.fold.finish(location, updatedAt);
  }

  /**
   * The info of a saved state, given the texts of the lines it covers (see
   * {@link parseTexts}), in order, and the lines after them (`tail`, folded here: a state
   * may be saved some lines behind the log); `null` when the lines are not a session,
   * undefined when the state cannot be resumed here (the caller folds the lines instead).
   */
  static info(
    saved: Buffer | null,
    texts: readonly string[],
    tail: readonly string[],
    location: string,
    updatedAt: Date,
  ): SessionInfo | null | undefined {
    const resumed = LineFold.resume(saved);
    if (resumed === undefined) return undefined;
    for (const text of texts) resumed.fold.texts.push(text);
    for (const line of tail) resumed.feed(line);
    if (resumed.stopped) return null;
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
  /** `null`: none saved (see {@link LineFold.save}). */
  readonly state: Buffer | null;
}

/** Folds a session's lines from `fold` on (from its start unless given). */
export function foldLines(lines: readonly StoredLine[], fold = LineFold.fresh()): FoldedLines {
  const texts = lines.map((l) => fold.line(lineText(l)));
  return { texts, state: fold.save() };
}

/** Appended lines as a group sends them: their rows, and the listing texts of each. */
export interface AppendedRows {
  readonly rows: LineRow[];
  /** What the fold collected from each line (`LineFold.line`); all null without a fold. */
  readonly texts: (string | null)[];
}

/**
 * The rows of lines appended at `firstSeq` on, each folded first when there is a fold: the
 * fold parses the line, and the row's query columns are read from that record instead of
 * parsing it again; without a fold each line is parsed for its columns alone.
 */
export function appendedRows(
  fold: LineFold | undefined,
  firstSeq: number,
  lines: readonly string[],
): AppendedRows {
  const rows: LineRow[] = [];
  const texts: (string | null)[] = [];
  for (const line of lines) {
    texts.push(fold ? fold.line(line) : null);
    rows.push(serialisedRow(firstSeq + rows.length, line, fold?.lastRecord));
  }
  return { rows, texts };
}

/** The fold a writer goes on with, and the seq up to which the stored state agrees with it. */
export interface WriterFold {
  readonly fold: LineFold;
  /** The stored state and texts are the fold's over the lines before this seq. */
  readonly savedSeq: number;
}

/** Texts to store again: the lines whose stored texts are not what the fold collects. */
export interface FoldRepair {
  readonly seqs: number[];
  readonly texts: (string | null)[];
}

/**
 * The saved state of a session resumed, or undefined when there is none to go on from: none
 * saved, one saved for more lines than there are, or another fold's or rule version's.
 */
export function resumeSaved(
  state: Buffer | null,
  savedSeq: string | null,
  nextSeq: string,
): LineFold | undefined {
  if (state === null || savedSeq === null || Number(savedSeq) > Number(nextSeq)) return undefined;
  return LineFold.resume(state);
}

/**
 * The writer's fold after a load: `resumed` fed the lines from `from` on (a fresh fold fed
 * every line when nothing was resumed), each line's texts compared with those stored beside
 * it. A repair is due when any differs (a writer that kept no fold wrote them) or when there
 * was no state to resume; `lines` are the session's, seq `i` at index `i`.
 */
export function catchUp(
  resumed: LineFold | undefined,
  from: number,
  lines: readonly (StoredLine & { readonly info_texts: string | null })[],
): { fold: LineFold; repair: FoldRepair | undefined } {
  const fold = resumed ?? LineFold.fresh();
  const seqs: number[] = [];
  const texts: (string | null)[] = [];
  for (let i = resumed ? from : 0; i < lines.length; i++) {
    const line = lines[i] as StoredLine & { info_texts: string | null };
    const collected = fold.line(lineText(line));
    if (collected !== line.info_texts) {
      seqs.push(i);
      texts.push(collected);
    }
  }
  const repair = seqs.length > 0 || resumed === undefined ? { seqs, texts } : undefined;
  return { fold, repair };
}
