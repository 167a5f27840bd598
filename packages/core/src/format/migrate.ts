/**
 * Migration of older session formats to version 3 (SPEC §2.3–§2.4), as pure functions. Unlike
 * R1.6 ([Fix] rows of SPEC §2.4): string ids and `parentId`s are kept (W10); new ids avoid
 * every id present or assigned (W11); `firstKeptEntryIndex` is resolved once all ids exist, and
 * unresolvable ones are reported; unparseable lines stay in place (W4). For a genuine v1 file
 * the result is JSON-equal to R1.6's, key order included.
 */

import { right } from "fp-ts/lib/Either.js";
import { type SessionEnv, systemEnv } from "../env/env.js";
import { generateEntryId } from "../env/ids.js";
import { HEADER_TYPE } from "../schema/header-type.js";
import type { FileEntry } from "../schema/types.js";
import type { DocLine, JsonRecord, ParsedDocument } from "./parse.js";
import { documentRecords, isJsonRecord } from "./parse.js";
import { CURRENT_SESSION_VERSION, findHeaderIndex, headerVersion } from "./record-rules.js";

/** Something migration could not do as the data asked; the migration still completes. */
export interface MigrationDiagnostic {
  /**
   * `firstKeptEntryIndex` at a header or at no record (`firstKeptEntryId` left out) or not a
   * number (kept, as in R1.6); or a header `version` that is not a number ({@link headerVersion}).
   */
  readonly kind:
    | "first-kept-entry-index-header"
    | "first-kept-entry-index-out-of-range"
    | "first-kept-entry-index-not-a-number"
    | "version-not-a-number";
  /** Index of the record concerned in the migrated record array. */
  readonly recordIndex: number;
  /** 1-based line number in the file; set by {@link migrateDocument}. */
  readonly line?: number;
  readonly message: string;
}

/** Result of {@link migrateRecords}. */
export interface MigrationResult {
  /** One per input record, in order: untouched ones are the input objects, changed ones new. */
  readonly records: FileEntry[];
  /** The version read from the header (1 without a header or `version`; may be `NaN`). */
  readonly fromVersion: number;
  /** Whether any record changed (the file needs a rewrite). */
  readonly changed: boolean;
  readonly diagnostics: MigrationDiagnostic[];
}

/** Result of {@link migrateDocument}: its diagnostics have their `line` set. */
export interface DocumentMigrationResult extends Omit<MigrationResult, "records"> {
  /** The document with its records migrated; malformed lines unchanged and in place. */
  readonly document: ParsedDocument;
}

/**
 * v1 → v2 (SPEC §2.4): every non-header record gets an id and a parent, then
 * `firstKeptEntryIndex` is resolved. Records in `out` are replaced, never mutated.
 */
function linkRecords(out: unknown[], env: SessionEnv, diagnostics: MigrationDiagnostic[]): void {
  // W11: the collision set holds every id in the file before any is assigned.
  const taken = new Set<string>();
  for (const r of out) if (isJsonRecord(r) && typeof r.id === "string") taken.add(r.id);

  const compactions: number[] = [];
  let previousId: string | null = null;
  for (let i = 0; i < out.length; i++) {
    const record = out[i];
    // Every `session` record is header-like: R1.6 gives none an id or a place in the chain.
    if (!isJsonRecord(record) || record.type === HEADER_TYPE) continue;
    let copy: JsonRecord | undefined;
    let id: string;
    if (typeof record.id === "string") id = record.id;
    else {
      id = generateEntryId(env, (candidate) => taken.has(candidate));
      taken.add(id);
      copy = { ...record, id };
    }
    const parent = Object.hasOwn(record, "parentId") ? record.parentId : undefined;
    if (parent !== null && typeof parent !== "string") {
      copy ??= { ...record };
      copy.parentId = previousId;
    }
    if (record.type === "compaction" && Object.hasOwn(record, "firstKeptEntryIndex")) {
      const index = record.firstKeptEntryIndex;
      if (typeof index === "number") compactions.push(i);
      else if (index !== undefined) {
        diagnostics.push({
          kind: "first-kept-entry-index-not-a-number",
          recordIndex: i,
          message: `compaction ${id}: firstKeptEntryIndex ${JSON.stringify(index)} is not a number; left unchanged`,
        });
      }
    }
    previousId = id;
    if (copy !== undefined) out[i] = copy;
  }

  // Second pass: every target has its id now, so forward references resolve too.
  for (const i of compactions) {
    const { firstKeptEntryIndex: index, ...rest } = out[i] as JsonRecord;
    const target = typeof index === "number" && Number.isInteger(index) ? out[index] : undefined;
    if (isJsonRecord(target) && target.type !== "session") {
      rest.firstKeptEntryId = target.id;
    } else {
      const header = isJsonRecord(target);
      const what = header ? "points at the header" : "is not the index of an entry";
      diagnostics.push({
        kind: header ? "first-kept-entry-index-header" : "first-kept-entry-index-out-of-range",
        recordIndex: i,
        message: `compaction ${String(rest.id)}: firstKeptEntryIndex ${String(index)} ${what}; firstKeptEntryId left out`,
      });
    }
    out[i] = rest;
  }
}

/** v2 → v3 (SPEC §2.4): each `session` record at version 3 (as R1.6); `hookMessage` → `custom`. */
function upgradeToV3(out: unknown[]): void {
  for (let i = 0; i < out.length; i++) {
    const record = out[i];
    if (!isJsonRecord(record)) continue;
    const m = record.message;
    if (record.type === HEADER_TYPE) {
      out[i] = { ...record, version: CURRENT_SESSION_VERSION };
    } else if (record.type === "message" && isJsonRecord(m) && m.role === "hookMessage") {
      out[i] = { ...record, message: { ...m, role: "custom" } };
    }
  }
}

/**
 * Migrates records to version 3 (SPEC §2.4). The header is the first `session` record; at
 * version 3 or above (or a version that is not numeric) nothing changes. Never mutates
 * `records` or any record in it.
 */
export function migrateRecords(
  records: readonly (JsonRecord | FileEntry)[],
  env: SessionEnv,
): MigrationResult {
  const diagnostics: MigrationDiagnostic[] = [];
  const headerIndex = findHeaderIndex(records);
  const header = records[headerIndex] as JsonRecord | undefined;
  const fromVersion = headerVersion(header);
  const version = header?.version;
  if (version != null && typeof version !== "number") {
    diagnostics.push({
      kind: "version-not-a-number",
      recordIndex: headerIndex,
      message: `header version ${JSON.stringify(version)} is not a number; read as ${fromVersion}`,
    });
  }
  // unknown[]: callers of the reference-compatible wrapper may pass non-objects (passed through).
  const out: unknown[] = records.slice();
  // `NaN < 3` is false, as in R1.6: a non-numeric version is left alone.
  if (fromVersion < CURRENT_SESSION_VERSION) {
    if (fromVersion < 2) linkRecords(out, env, diagnostics);
    upgradeToV3(out);
  }
  let changed = false;
  for (let i = 0; i < out.length && !changed; i++) changed = out[i] !== records[i];
  return { records: out as FileEntry[], fromVersion, changed, diagnostics };
}

/**
 * Migrates the records of a parsed document, every other line kept in place so a rewrite keeps
 * it word for word (W4); a migrated line's `raw` is still the text it was read from.
 */
export function migrateDocument(doc: ParsedDocument, env: SessionEnv): DocumentMigrationResult {
  const { records, ...result } = migrateRecords(documentRecords(doc), env);
  const parsed = doc.lines.filter((l) => l.value._tag === "Right");
  const diagnostics = result.diagnostics.map((d) => ({ ...d, line: parsed[d.recordIndex]?.line }));
  if (!result.changed) return { ...result, diagnostics, document: doc };
  let k = 0;
  const lines = doc.lines.map((l): DocLine => {
    if (l.value._tag === "Left") return l;
    const migrated = records[k++] as unknown as JsonRecord;
    return migrated === l.value.right ? l : { ...l, value: right(migrated) };
  });
  return { ...result, diagnostics, document: { ...doc, lines } };
}

/**
 * Reference-compatible migration (SPEC §2.4, §8.6): replaces migrated elements of `entries` in
 * place, as R1.6 code expects (the old objects are not mutated); diagnostics are dropped.
 */
export function migrateSessionEntries(entries: FileEntry[], env: SessionEnv = systemEnv): void {
  const result = migrateRecords(entries, env);
  if (!result.changed) return;
  for (let i = 0; i < entries.length; i++) entries[i] = result.records[i] as FileEntry;
}
