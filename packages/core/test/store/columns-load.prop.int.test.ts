/**
 * A large current session file opens as columns (its bodies decoded when something reads them,
 * `PI_SESSIONS_COLUMNS_FROM_BYTES`); a small one opens whole, as text. Both loads must give the
 * same session: every getter, the tree, the diagnostics of damaged lines (W5, I10), the context
 * and its projection, and the file after the next appends — on sessions our manager wrote, then
 * damaged (truncated, garbage, fragments, duplicates, cycles, dangling parents) and grown (lines
 * appended by another writer after the load's end).
 */
import { appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type SessionManager as Manager, SessionManager } from "@pi-sessions/core";
import { fcOptions, runWithEnv, tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COLUMNS_FROM_BYTES_ENV, EntryUnreadableError } from "../core-parts.js";
import { sessionArb, user, writeSession } from "../persist/fault-sessions.js";
import { inject, lineFaultArb, structuralFaultArb, truncate } from "../persist/faults-helpers.js";

/** Opens `file` as columns (`true`) or as text, by the size threshold. */
function openAs(columns: boolean, file: string): Manager {
  const from = columns ? "0" : String(Number.MAX_SAFE_INTEGER);
  return runWithEnv(COLUMNS_FROM_BYTES_ENV, from, () => SessionManager.open(file));
}

/** Everything a caller can read of a manager, as JSON text (entries decoded on the way). */
function observe(sm: Manager): string {
  const tree = (nodes: ReturnType<Manager["getTree"]>): unknown =>
    nodes.map((n) => [n.entry.id, n.label ?? null, tree(n.children)]);
  const leaf = sm.getLeafId();
  return JSON.stringify({
    header: sm.getHeader(),
    entries: sm.getEntries(),
    leaf,
    leafEntry: sm.getLeafEntry(),
    count: sm.getEntryCount(),
    tree: tree(sm.getTree()),
    branch: sm.getBranch(),
    children: leaf === null ? [] : sm.getChildren(leaf),
    name: sm.getSessionName(),
    labels: sm.getEntries().map((e) => sm.getLabel(e.id) ?? null),
    context: sm.buildSessionContext(),
    projection: sm.buildSessionProjection(),
    contextEntries: sm.buildContextEntries(),
    diagnostics: sm.getLoadDiagnostics(),
  });
}

/** Opens `file` both ways, compares, appends the same turn through each, compares the bytes. */
function sameBothWays(file: string): void {
  let whole: Manager;
  try {
    whole = openAs(false, file);
  } catch (error) {
    // A file that is not a session fails both ways alike.
    expect(() => openAs(true, file)).toThrow((error as Error).message);
    return;
  }
  const columns = openAs(true, file);
  expect(observe(columns)).toBe(observe(whole));
  // What both appends start from (an empty file was given a header by the first open).
  const opened = readFileSync(file);
  // The same appends (deterministic ids are not needed: compare after reading back).
  columns.appendMessage(user("after a columns load"));
  columns.close();
  const viaColumns = readFileSync(file);
  writeFileSync(file, opened);
  whole.appendMessage(user("after a columns load"));
  whole.close();
  const viaText = readFileSync(file);
  const strip = (b: Buffer) =>
    b
      .toString("utf8")
      .replace(/"id":"[0-9a-f]{8}"/g, "")
      .replace(/"timestamp":"[^"]+"/g, "");
  expect(strip(viaColumns)).toBe(strip(viaText));
  expect(observe(openAs(true, file))).toBe(observe(openAs(false, file)));
}

describe("a session file opened as columns equals the same file opened whole", () => {
  const root = tempDir("pi-columns-");
  let n = 0;
  const fileOf = (bytes: Buffer) => {
    const file = join(root, `s${n++}.jsonl`);
    writeFileSync(file, bytes);
    return file;
  };

  it("on sessions with every entry type, then damaged or grown (numRuns 120)", () => {
    const damage = fc.oneof(
      fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
      fc.record({
        kind: fc.constant("lines" as const),
        faults: fc.array(fc.oneof(lineFaultArb, structuralFaultArb), { maxLength: 6 }),
      }),
      fc.record({ kind: fc.constant("grown" as const), turns: fc.nat(5) }),
    );
    fc.assert(
      fc.property(sessionArb, damage, (session, d) => {
        const written = writeSession(join(root, `w${n++}`), session);
        let bytes = written.bytes;
        if (d.kind === "truncate") bytes = truncate(bytes, d.at % (bytes.length + 1)).bytes;
        if (d.kind === "lines") bytes = inject(bytes, d.faults).bytes;
        const file = fileOf(bytes);
        if (d.kind === "grown") {
          // Another writer's lines after the end, the last one torn (it is still writing).
          const more = Array.from({ length: d.turns }, (_, i) =>
            JSON.stringify({
              type: "custom",
              customType: "x",
              data: i,
              id: `grown-${i}`,
              parentId: null,
              timestamp: "t",
            }),
          );
          appendFileSync(file, `${more.join("\n")}\n{"type":"message","id":"torn`);
        }
        sameBothWays(file);
      }),
      fcOptions(120),
    );
  });

  it("reads a body the file no longer holds as a clear error, never as another entry", () => {
    const written = writeSession(join(root, "changed"), { seed: 7, ops: [] });
    const sm = openAs(true, written.file);
    const entries = sm.getEntries();
    const last = entries.at(-1) as { id: string };
    // The last line rewritten in place with another entry of the same length.
    const text = readFileSync(written.file, "utf8");
    const other = last.id.replace(/./, (c) => (c === "a" ? "b" : "a"));
    writeFileSync(written.file, text.replace(`"id":"${last.id}"`, `"id":"${other}"`));
    expect(() => JSON.stringify(sm.getEntry(last.id))).toThrow(EntryUnreadableError);
    expect(sm.getEntry(last.id)?.id).toBe(last.id);
    // A file replaced by a copy of the same bytes (renamed over it) reads as before.
    const again = openAs(true, written.file);
    const before = JSON.stringify(again.getHeader());
    writeFileSync(`${written.file}.copy`, readFileSync(written.file));
    renameSync(`${written.file}.copy`, written.file);
    expect(JSON.stringify(again.getHeader())).toBe(before);
    expect(again.getEntries().map((e) => e.id)).toContain(other);
    expect(JSON.parse(JSON.stringify(again.getEntries()))).toEqual(
      readFileSync(written.file, "utf8")
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => JSON.parse(l)),
    );
  });
});
