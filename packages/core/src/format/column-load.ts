/**
 * The load of a current (v3+) session file as columns (SPEC §6.5 steps 2–6, without IO): fed
 * the file's bytes in chunks, it keeps each entry's tree fields (id, parentId, type), file line
 * and byte span, and decodes only what the load itself needs: the header, the records the
 * built-in projections fold (labels, session names), and every line the byte check of
 * json-scan.ts does not vouch for, which then goes through the one line parser's rules exactly
 * as the text load does. Its result equals that load's (a property the tests check), but a
 * 1 GB file costs a scan of its bytes instead of a `JSON.parse` and an object tree per line.
 */

import { ENTRY_TYPE_NAMES, entryTypesWithRole } from "../schema/entry-types.js";
import { loadedEntry } from "../schema/record-fields.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import type { LoadDiagnostic } from "../state/diagnostics.js";
import type { EntryColumns } from "../state/entry-log.js";
import { newLineHead, scanObjectLine } from "./json-scan.js";
import { LineMap } from "./line-map.js";
import { notASession } from "./load-text.js";
import { type JsonlVisitor, type JsonRecord, type LineIssue, visitLine } from "./parse.js";
import {
  headerVersion,
  isCurrentHeader,
  isValidHeader,
  recordKind,
  recordProblem,
} from "./record-rules.js";

/** A current session file loaded as columns; the bodies stay in the file's bytes. */
export interface LoadedColumns extends EntryColumns {
  readonly header: SessionHeader;
  /** The header's version (at least 3). */
  readonly version: number;
  /** The header's 1-based line. */
  readonly headerLine: number;
  /** Whether the file ended without `\n` (the next append writes one first, W1). */
  readonly needsNewline: boolean;
  readonly diagnostics: LoadDiagnostic[];
  /** Line number of each entry. */
  readonly entryLines: LineMap;
  /** Byte offset of each entry's line in the file. */
  readonly offsets: ArrayLike<number>;
  /** Byte length of each entry's line (without its `\n`). */
  readonly lengths: ArrayLike<number>;
  /** Bytes read. */
  readonly size: number;
}

/** Each entry's columns and line places in a {@link LoadedColumns}. */
export type LoadedEntryColumns = Pick<
  LoadedColumns,
  "ids" | "parents" | "types" | "roles" | "slots" | "entryLines" | "offsets" | "lengths"
>;

/** What a {@link LoadedColumns} says of the file as a whole, besides its header. */
export type LoadedFileFacts = Pick<
  LoadedColumns,
  "headerLine" | "needsNewline" | "diagnostics" | "size"
>;

/**
 * The one constructor of {@link LoadedColumns}, for a load from the bytes
 * ({@link ColumnLoader.finish}) and from a vouched layout (`store/vouched-columns.ts`): the
 * version is read from the header here, and only the named fields are kept.
 */
export function loadedColumns(
  header: SessionHeader,
  entries: LoadedEntryColumns,
  file: LoadedFileFacts,
): LoadedColumns {
  const { ids, parents, types, roles, slots, entryLines, offsets, lengths } = entries;
  const { headerLine, needsNewline, diagnostics, size } = file;
  const version = headerVersion(header as unknown as JsonRecord);
  return {
    header,
    version,
    headerLine,
    needsNewline,
    diagnostics,
    entryLines,
    ids,
    parents,
    types,
    roles,
    slots,
    offsets,
    lengths,
    size,
  };
}

/** Thrown by {@link ColumnLoader} when the header asks for migration: load the file as text. */
export class LegacyFileError extends Error {
  constructor() {
    super("legacy session file: migration needs the whole text");
    this.name = "LegacyFileError";
  }
}

/** Entry types decoded at load: the built-in projections fold them (labels, names). */
const DECODED_AT_LOAD = new Set<string>(entryTypesWithRole("tree-state"));

/** Entry types by their bytes, so a line's type costs a compare, not a new string. */
const KNOWN_TYPES = [
  ...ENTRY_TYPE_NAMES,
  "session",
  // Message roles share the table: they are read the same way.
  "user",
  "assistant",
  "toolResult",
  "system",
  "custom",
  "bashExecution",
].map((name) => ({ name, bytes: Buffer.from(name) }));

/** The text of `b[start, end)` (a JSON string's content without escapes). */
function decodeSpan(b: Buffer, start: number, end: number): string {
  for (let i = start; i < end; i++)
    if ((b[i] as number) >= 0x80) return b.toString("utf8", start, end);
  return b.toString("latin1", start, end);
}

/** The type named by `b[start, end)`, a shared string for the known ones. */
function typeOf(b: Buffer, start: number, end: number): string {
  const n = end - start;
  for (const known of KNOWN_TYPES) {
    if (known.bytes.length !== n) continue;
    let same = true;
    for (let k = 0; k < n && same; k++) same = b[start + k] === known.bytes[k];
    if (same) return known.name;
  }
  return decodeSpan(b, start, end);
}

/** Loads a current session file from its bytes (see the module comment). */
export class ColumnLoader implements JsonlVisitor {
  private header: SessionHeader | null = null;
  private headerLine = 0;
  private readonly ids: string[] = [];
  private readonly parents: unknown[] = [];
  private readonly types: unknown[] = [];
  private readonly roles: unknown[] = [];
  private readonly slots: (SessionEntry | undefined)[] = [];
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private readonly entryLines = new LineMap();
  private readonly diagnostics: LoadDiagnostic[] = [];
  private readonly head = newLineHead();
  private line = 0;
  /** Bytes fed so far; the start of the next chunk in the file. */
  private fed = 0;
  /** An unfinished line carried to the next chunk, and where it starts in the file. */
  private carry: Buffer | undefined;
  private lastByte = -1;
  /** The current line's offset and length, for the records the visitor gets. */
  private current = { offset: 0, length: 0 };

  constructor(private readonly label: string) {}

  /** Feeds the next `n` bytes of the file (the first `n` of `chunk`, which may be reused). */
  push(chunk: Buffer, n = chunk.length): void {
    if (n === 0) return;
    const chunkStart = this.fed;
    this.fed += n;
    this.lastByte = chunk[n - 1] as number;
    let start = 0;
    for (let end = chunk.indexOf(10, 0); end >= 0 && end < n; end = chunk.indexOf(10, start)) {
      if (this.carry === undefined) this.handle(chunk, start, end, chunkStart + start);
      else {
        const carried = this.carry;
        this.carry = undefined;
        const joined = Buffer.concat([carried, chunk.subarray(0, end)]);
        this.handle(joined, 0, joined.length, chunkStart - carried.length);
      }
      start = end + 1;
    }
    if (start < n) {
      const rest = chunk.subarray(start, n);
      this.carry = this.carry === undefined ? Buffer.from(rest) : Buffer.concat([this.carry, rest]);
    }
  }

  /** Ends the input and gives the columns; throws when there was no header (or a legacy one). */
  finish(): LoadedColumns {
    const rest = this.carry;
    this.carry = undefined;
    if (rest !== undefined && rest.length > 0)
      this.handle(rest, 0, rest.length, this.fed - rest.length);
    const header = this.header;
    if (header === null) throw notASession(this.label, { kind: this.fed ? "no-records" : "empty" });
    const { ids, parents, types, roles, slots, entryLines, offsets, lengths } = this;
    const { headerLine, diagnostics } = this;
    const needsNewline = this.fed > 0 && this.lastByte !== 10;
    return loadedColumns(
      header,
      { ids, parents, types, roles, slots, entryLines, offsets, lengths },
      { headerLine, needsNewline, diagnostics, size: this.fed },
    );
  }

  /** One line, `b[start, end)`, at `offset` in the file. */
  private handle(b: Buffer, start: number, end: number, offset: number): void {
    const line = ++this.line;
    const head = this.head;
    if (
      this.header !== null &&
      b[start] === 0x7b &&
      scanObjectLine(b, start, end, head) &&
      head.idStart >= 0
    ) {
      const type = head.typeStart < 0 ? undefined : typeOf(b, head.typeStart, head.typeEnd);
      if (type !== "session" && !(type !== undefined && DECODED_AT_LOAD.has(type))) {
        const id = decodeSpan(b, head.idStart, head.idEnd);
        let parent: string | null | undefined;
        if (head.parentKind === 1) parent = null;
        else if (head.parentKind === 2) {
          parent = decodeSpan(b, head.parentStart, head.parentEnd);
          // Most parents are the previous entry: share its id string instead of a copy.
          const previous = this.ids[this.ids.length - 1];
          if (parent === previous) parent = previous;
        }
        const role =
          type === "message" && head.roleStart >= 0
            ? typeOf(b, head.roleStart, head.roleEnd)
            : undefined;
        this.push_({ id, parentId: parent, type, role }, undefined, line, offset, end - start);
        return;
      }
    }
    this.current = { offset, length: end - start };
    visitLine(this, b.toString("utf8", start, end), line);
  }

  private push_(
    head: { id: string; parentId: unknown; type: unknown; role?: unknown },
    entry: SessionEntry | undefined,
    line: number,
    offset: number,
    length: number,
  ): void {
    this.ids.push(head.id);
    this.parents.push(head.parentId);
    this.types.push(head.type);
    this.roles.push(head.role);
    this.slots.push(entry);
    this.offsets.push(offset);
    this.lengths.push(length);
    this.entryLines.push(line);
  }

  /** A line the byte check left to JSON.parse that parsed to an object (JsonlVisitor). */
  record(record: JsonRecord, line: number): boolean {
    if (this.header === null) {
      if (!isValidHeader(record))
        throw notASession(this.label, { kind: "invalid-header", line, record });
      if (!isCurrentHeader(record)) throw new LegacyFileError();
      this.header = record;
      this.headerLine = line;
      return true;
    }
    const kind = recordKind(record, true);
    if (kind === "entry") {
      const entry = loadedEntry(record);
      this.push_(entry, entry, line, this.current.offset, this.current.length);
    } else if (kind !== "header") this.diagnostics.push(recordProblem(kind, record, line));
    return true;
  }

  /** A non-blank line that is not a JSON object (W5): reported, not an entry. */
  issue({ kind, line, message }: LineIssue): boolean {
    this.diagnostics.push({ kind, line, message });
    return true;
  }
}
