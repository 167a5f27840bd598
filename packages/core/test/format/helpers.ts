/**
 * The reference implementation (npm @earendil-works/pi-coding-agent@1.6.0), loaded by file
 * path as a black-box oracle: its package exports do not expose the session module.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FileEntry } from "@pi-sessions/core";
import { CORPUS_DIR, loadReference as loadReferenceModule } from "@pi-sessions/test-utils";

/** The part of the reference's session module these tests call. */
export interface ReferenceSessionModule {
  parseSessionEntries(text: string): unknown[];
  migrateSessionEntries(entries: unknown[]): void;
  CURRENT_SESSION_VERSION: number;
}

/** Imports the reference's session module. */
export async function loadReference(): Promise<ReferenceSessionModule> {
  return loadReferenceModule<ReferenceSessionModule>();
}

/**
 * Replaces entry ids (and the references to them) by their order of first appearance, so two
 * migrations that drew different random ids can be compared by JSON value and key order.
 */
export function normaliseIds(records: readonly unknown[]): unknown[] {
  const names = new Map<unknown, string>();
  const name = (id: unknown): unknown => {
    if (typeof id !== "string") return id;
    let n = names.get(id);
    if (n === undefined) {
      n = `#${names.size}`;
      names.set(id, n);
    }
    return n;
  };
  return records.map((r) => {
    if (typeof r !== "object" || r === null || Array.isArray(r)) return r;
    const rec = r as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rec)) {
      const isRef =
        (k === "id" && rec.type !== "session") ||
        k === "parentId" ||
        k === "firstKeptEntryId" ||
        k === "targetId" ||
        k === "fromId";
      out[k] = isRef ? name(v) : v;
    }
    return out;
  });
}

/** Entries (non-header records) of a migrated file, typed loosely for assertions. */
export function entriesOf(records: readonly FileEntry[]): Record<string, unknown>[] {
  return records.filter((r) => r.type !== "session") as unknown as Record<string, unknown>[];
}

/** Reads a corpus file as text. */
export const corpus = (name: string): string => readFileSync(join(CORPUS_DIR, name), "utf8");

/** Deep-freezes a value so any mutation by the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Runs the reference migration on a deep copy of `records` and returns the copy. */
export async function referenceMigration(records: readonly unknown[]): Promise<unknown[]> {
  const ref = await loadReference();
  const copy = structuredClone(records) as unknown[];
  ref.migrateSessionEntries(copy);
  return copy;
}
