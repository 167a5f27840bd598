/**
 * `allMessagesText` read when something reads it. A warm listing of ten thousand sessions
 * otherwise spends most of its time copying every session's joined message text out of the
 * index (tens of megabytes), while pi's picker reads that text only once the user types a search
 * (`session-selector-search.js`); every other field is in the row the listing read anyway.
 *
 * The info keeps the text as an accessor of its own in its place among the keys (core's
 * `decodeListingAnswer`), so whatever reads the info (equality, spreading, `JSON.stringify`,
 * `structuredClone`) sees what the file listing gives. What a read fetches is the file's text as
 * the listing found it: the row's, while the row is still the one the file's stat vouched for;
 * once it is not (the file was written since, the index closed or failing), the file's own,
 * read as core's listing reads it. The first read of a listing asks for its one text; a second
 * means something reads them all (pi's search does, on the first key typed), so the texts of
 * every row under the listing's scope are read in one statement then, not one query each.
 */

import { readSessionInfoSync } from "@pi-sessions/core/internal";
import type { ListedRow, StampedText, Statements } from "./statements.js";

/** The texts of one listing's answers, read on first use. */
export class ListingTexts {
  private reads = 0;
  /** The texts read in one statement, by row id (each leaves when read); set after a batch. */
  private batch: Map<number, Uint8Array> | undefined;
  /** The rows answered lazily, by id, as the listing read them. */
  private readonly rows = new Map<number, ListedRow>();

  constructor(
    private readonly st: Statements,
    /** Every path of the listing starts with this; `null`: no batch, one query per text. */
    private readonly prefix: string | null,
  ) {}

  /**
   * What reads the text of the file at `path` that the vouched `row` describes (`""` when it
   * is no longer a readable session: a listing's info never throws on read).
   */
  loader(row: ListedRow, path: string): () => string {
    this.rows.set(row.id, row);
    return () => this.stored(row) ?? readSessionInfoSync(path)?.info?.allMessagesText ?? "";
  }

  /** The row's text while the row is unchanged; `undefined` when it changed or the index fails. */
  private stored(row: ListedRow): string | undefined {
    try {
      if (++this.reads === 2 && this.prefix !== null) this.readAll(this.prefix);
      const batch = this.batch;
      if (batch === undefined) return this.st.textWhileUnchanged(row);
      const bytes = batch.get(row.id);
      batch.delete(row.id);
      return bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString();
    } catch {
      return undefined; // closed or failing: the file says it
    }
  }

  /** Reads the texts of every row under `prefix` that is still as the listing read it. */
  private readAll(prefix: string): void {
    const batch = new Map<number, Uint8Array>();
    for (const found of this.st.textsBetween.iterate(prefix, `${prefix}\u{10ffff}`)) {
      const row = this.rows.get(found[0]);
      if (row !== undefined && unchanged(row, found)) batch.set(found[0], found[8]);
    }
    this.batch = batch;
  }
}

/** Whether the stored text's row has the stamp, committed bytes and rules `row` had. */
function unchanged(row: ListedRow, found: StampedText): boolean {
  return (
    found[1] === row.dev &&
    found[2] === row.ino &&
    found[3] === row.size &&
    found[4] === row.mtime_ms &&
    found[5] === row.ctime_ms &&
    found[6] === row.committed &&
    found[7] === row.rules
  );
}
