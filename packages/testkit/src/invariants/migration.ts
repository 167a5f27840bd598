/**
 * I7, migration: v1/v2 → v3 is idempotent and keeps every line (unparseable ones verbatim,
 * W4), gives every entry an id and a parent, and leaves no `hookMessage` role.
 */
import { isJsonRecord } from "@pi-sessions/core/internal";
import type { SessionHarness } from "./harness.js";
import { jsonEqual } from "./json.js";
import { type AppendableSession, guard, type Violation, violation } from "./types.js";

/**
 * A migration of records. Ours: `(rs) => migrateRecords(rs, env).records`. The reference's
 * works in place: `(rs) => { migrateSessionEntries(rs); return rs; }` — the checker always
 * passes a fresh copy, so both forms are fine.
 */
export type MigrateFn = (records: Record<string, unknown>[]) => readonly unknown[];

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * I7 on records: one record out per record in, same types in the same order; a header below
 * version 3 ends at version 3; then every entry has a string id and a `parentId` that is
 * `null` or a string, newly assigned ids collide with no other id and are never their own
 * parent, no `hookMessage` is left; and migrating the result again changes nothing.
 */
export function checkI7MigrateRecords(
  migrate: MigrateFn,
  records: readonly Record<string, unknown>[],
): Violation[] {
  return guard("I7", (out) => {
    const result = migrate(copy([...records]));
    if (result.length !== records.length) {
      out.push(violation("I7", `${records.length} records became ${result.length}`));
      return;
    }
    const header = records.find((r) => r.type === "session");
    const version = header?.version ?? 1;
    const legacy = typeof version === "number" && version < 3;
    const oldIds = new Set(records.flatMap((r) => (typeof r.id === "string" ? [r.id] : [])));
    const seenFresh = new Set<string>();
    result.forEach((r, i) => {
      const before = records[i] as Record<string, unknown>;
      if (!isJsonRecord(r) || r.type !== before.type) {
        out.push(violation("I7", `record ${i + 1} changed type`));
        return;
      }
      if (r.type === "session") {
        const isHeader = before === header;
        if (legacy && isHeader && r.version !== 3) {
          out.push(violation("I7", `the header is at version ${String(r.version)}, not 3`));
        }
        return;
      }
      if (!legacy) return;
      const id = r.id;
      if (typeof id !== "string") {
        out.push(violation("I7", `record ${i + 1} has no string id after migration`));
        return;
      }
      if (typeof before.id !== "string") {
        if (oldIds.has(id) || seenFresh.has(id)) {
          out.push(violation("I7", `new id ${id} collides with another id`, { entryId: id }));
        }
        seenFresh.add(id);
        if (r.parentId === id)
          out.push(violation("I7", "a new id is its own parent", { entryId: id }));
      }
      if (r.parentId !== null && typeof r.parentId !== "string") {
        out.push(violation("I7", "parentId is neither null nor a string", { entryId: id }));
      }
      if (isJsonRecord(r.message) && r.message.role === "hookMessage") {
        out.push(violation("I7", "role hookMessage was not renamed to custom", { entryId: id }));
      }
    });
    const again = migrate(copy([...result]) as Record<string, unknown>[]);
    if (!jsonEqual(again, result)) out.push(violation("I7", "migrating twice changes the result"));
  });
}

/** Non-blank lines of a text, with 1-based line numbers. */
function lines(text: string): { line: number; raw: string }[] {
  return text
    .split("\n")
    .map((raw, i) => ({ line: i + 1, raw }))
    .filter((l) => l.raw.trim() !== "");
}

function parses(raw: string): boolean {
  try {
    return isJsonRecord(JSON.parse(raw));
  } catch {
    return false;
  }
}

/**
 * I7 on a file, through a harness that writes files: opening the legacy `text` rewrites it
 * with as many non-blank lines, every line that is not a record kept word for word in the same
 * order, a version 3 header; and opening the result again leaves it byte for byte unchanged.
 */
export function checkI7MigrationFile<S extends AppendableSession>(
  harness: SessionHarness<S>,
  text: string,
): Violation[] {
  return guard("I7", (out) => {
    if (!harness.withFile) {
      out.push(violation("I7", `harness ${harness.name} cannot write files`));
      return;
    }
    const after = harness.withFile(text).text;
    const before = lines(text);
    const now = lines(after);
    if (now.length !== before.length) {
      out.push(violation("I7", `${before.length} lines became ${now.length}`));
    }
    const keptRaw = now.filter((l) => !parses(l.raw)).map((l) => l.raw);
    const oldRaw = before.filter((l) => !parses(l.raw));
    oldRaw.forEach((l, i) => {
      if (keptRaw[i] !== l.raw) {
        out.push(
          violation("I7", "a line that is not a record was not kept verbatim", { line: l.line }),
        );
      }
    });
    const header = now
      .filter((l) => parses(l.raw))
      .map((l) => JSON.parse(l.raw) as Record<string, unknown>)
      .find((r) => r.type === "session");
    if (!isJsonRecord(header) || header.version !== 3) {
      out.push(violation("I7", "the rewritten file has no version 3 header"));
    }
    const again = harness.withFile(after).text;
    if (again !== after) out.push(violation("I7", "opening the migrated file changed it again"));
  });
}
