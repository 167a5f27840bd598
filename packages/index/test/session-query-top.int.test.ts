/**
 * The two answers the index gives from what it saved while indexing, not from the records:
 * the top of the tree (`treeTop`, from the rows' parent lines) and the usage totals (the
 * plugins' usage state kept per file). Each must equal what core and the plugins give over
 * the whole file, when the file is indexed in one go and when it is caught up after growing;
 * and the tree top read from the file's column snapshot (`snapshot-links.ts`, which a large
 * file's tree uses; here every file's) must too, after growth, a damaged line and a rewrite.
 */

import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  branchOf,
  readSession,
  replayState,
  type SessionEntry,
  type SessionTreeNode,
  treeOf,
} from "@pi-sessions/core";
import { computeUsageTotals, USAGE_TOTALS_PROJECTION_NAME } from "@pi-sessions/plugins";
import { fcOptions, runWithEnv, tempDir } from "@pi-sessions/test-utils";
import { sessionLogArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type IndexedSession, openSessionIndex } from "../src/index.js";
import { TREE_SNAPSHOT_FROM_ROWS_ENV } from "../src/snapshot-links.js";
import { HEADER } from "./session-header.js";
import { openLook } from "./sqlite-look.js";

/** Entries below a node of a whole tree. */
function descendants(node: SessionTreeNode): number {
  let count = 0;
  const stack = [...node.children];
  while (stack.length > 0) {
    count++;
    for (const c of (stack.pop() as SessionTreeNode).children) stack.push(c);
  }
  return count;
}

/**
 * A tree's top `depth` levels in pre-order: id, label, the entry's type as `record` reads
 * it, and after each node cut at `depth` how many entries lie below it.
 */
function flattenTop(
  roots: readonly SessionTreeNode[],
  depth: number,
  below: (node: SessionTreeNode) => number,
  record: (entry: SessionEntry) => SessionEntry,
): string[] {
  const out: string[] = [];
  const stack: [SessionTreeNode, number][] = [...roots].reverse().map((n) => [n, 1]);
  while (stack.length > 0) {
    const [node, level] = stack.pop() as [SessionTreeNode, number];
    const label = node.label === undefined ? "" : `[${node.label}]`;
    const read = record(node.entry);
    out.push(`${node.entry.id}${label} ${read.id === node.entry.id ? read.type : "?"}`);
    if (level === depth && node.children.length > 0) out.push(`… ${below(node)}`);
    else {
      for (let i = node.children.length - 1; i >= 0; i--)
        stack.push([node.children[i] as SessionTreeNode, level + 1]);
    }
  }
  return out;
}

/** Asserts the session's tree top and usage equal the whole file's, at each given leaf. */
function expectLikeFile(s: IndexedSession, file: string, depth: number, pick: number): void {
  const direct = readSession(file);
  const state = replayState(direct.header, direct.entries);
  const top = s.treeTop(depth);
  expect(
    flattenTop(
      top.roots,
      depth,
      (n) => top.below(n),
      (e) => top.recordOf(e),
    ),
  ).toEqual(flattenTop(treeOf(state), depth, descendants, (e) => e));
  const ids = direct.entries.map((e) => e.id);
  const shown = new Set<string>();
  const stack = [...top.roots];
  while (stack.length > 0) {
    const node = stack.pop() as SessionTreeNode;
    shown.add(node.entry.id);
    stack.push(...node.children);
  }
  for (const leaf of [state.leafId, ids[pick % Math.max(1, ids.length)] ?? null]) {
    const onPath = branchOf(state, leaf).map((e) => e.id);
    expect([...top.pathIds(leaf)].sort()).toEqual(onPath.filter((id) => shown.has(id)).sort());
    const session = s.usageSession(leaf);
    // The saved state answers: the sums do not fold the records again.
    expect(session.getProjectionState?.(USAGE_TOTALS_PROJECTION_NAME)).toBeDefined();
    expect(computeUsageTotals(session, leaf)).toEqual(computeUsageTotals(direct.entries, leaf));
  }
}

/**
 * Opens `file` through the index, runs `use` and closes it; `refused` when the index must not
 * answer for it (`use` gets null).
 */
function through<R extends boolean = false>(
  indexFile: string,
  file: string,
  use: (s: R extends true ? null : IndexedSession) => void,
  refused?: R,
): void {
  const index = openSessionIndex({ file: indexFile });
  try {
    const s = index.session(file);
    if (refused === true) {
      use(s as R extends true ? null : IndexedSession);
      return;
    }
    expect(s).not.toBeNull();
    if (s === null) return;
    try {
      use(s as R extends true ? null : IndexedSession);
    } finally {
      s.close();
    }
  } finally {
    index.close();
  }
}

describe("a session's tree top and usage through the index", () => {
  const PARAMS = fcOptions(40);
  it(`equal the whole file's, indexed at once and caught up after growth (numRuns ${PARAMS.numRuns})`, () => {
    const arb = sessionLogArb({ minEntries: 0, maxEntries: 80, shape: "bushy", multiRoot: true });
    fc.assert(
      fc.property(
        arb,
        fc.nat(),
        fc.integer({ min: 1, max: 6 }),
        fc.nat(),
        (log, cut, depth, pick) => {
          const dir = tempDir();
          const file = join(dir, "s.jsonl");
          const indexFile = join(dir, "index.sqlite");
          const lines = log.jsonl.split(/(?<=\n)/);
          // The header and a first part, indexed; then the rest, caught up from the rows saved.
          const at = 1 + (cut % lines.length);
          writeFileSync(file, lines.slice(0, at).join(""));
          through(indexFile, file, (s) => expectLikeFile(s, file, depth, pick));
          appendFileSync(file, lines.slice(at).join(""));
          through(indexFile, file, (s) => expectLikeFile(s, file, depth, pick));
        },
      ),
      PARAMS,
    );
  });

  it("equal the whole file's when its last line is too long to parse for the leaf's row", () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    const message = (id: string, parentId: string | null, text: string) => ({
      type: "message",
      id,
      parentId,
      timestamp: "2026-01-01T00:00:01.000Z",
      message: { role: "user", content: text, timestamp: 1 },
    });
    // 100 KiB: past the length whose id the index parses for the last row (the rows give it).
    const records = [
      HEADER,
      message("r1", null, "a"),
      message("r2", null, "b"),
      message("c1", "r1", "x".repeat(100 * 1024)),
    ];
    writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
    through(join(dir, "index.sqlite"), file, (s) => {
      expect(s.leafId).toBe("c1");
      expectLikeFile(s, file, 2, 0);
    });
  });

  it("read every usage record when a sum cannot be saved exactly, with the same totals", () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    const huge = (id: string, parentId: string | null) => ({
      type: "message",
      id,
      parentId,
      timestamp: "2026-01-01T00:00:01.000Z",
      message: {
        role: "assistant",
        content: [],
        provider: "p",
        model: "m",
        usage: { input: 1e308, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 1e308 },
        stopReason: "stop",
        timestamp: 1,
      },
    });
    const records = [HEADER, huge("a1", null), huge("a2", "a1")];
    writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
    through(join(dir, "index.sqlite"), file, (s) => {
      const session = s.usageSession(s.leafId);
      expect(session.getProjectionState?.(USAGE_TOTALS_PROJECTION_NAME)).toBeUndefined();
      const totals = computeUsageTotals(session, s.leafId);
      expect(totals.tree.input).toBe(Number.POSITIVE_INFINITY);
      expect(totals).toEqual(computeUsageTotals(readSession(file).entries, s.leafId));
    });
  });
});

/** The rows the file's column snapshot covers, or undefined without one. */
function snapshotRows(indexFile: string): number | undefined {
  const db = openLook(indexFile, { readonly: true });
  try {
    const row = db.prepare("SELECT rows FROM file_columns").get() as { rows: number } | undefined;
    return row?.rows;
  } finally {
    db.close();
  }
}

describe("a session's tree top read from the column snapshot", () => {
  const PARAMS = fcOptions(40);
  it(`equals the whole file's: written, caught up after growth, after a damaged line and a rewrite (numRuns ${PARAMS.numRuns})`, () => {
    const arb = sessionLogArb({ minEntries: 1, maxEntries: 80, shape: "bushy", multiRoot: true });
    runWithEnv(TREE_SNAPSHOT_FROM_ROWS_ENV, "0", () =>
      fc.assert(
        fc.property(
          arb,
          arb,
          fc.nat(),
          fc.integer({ min: 1, max: 6 }),
          fc.nat(),
          (log, other, cut, depth, pick) => {
            const dir = tempDir();
            const file = join(dir, "s.jsonl");
            const indexFile = join(dir, "index.sqlite");
            const lines = log.jsonl.split(/(?<=\n)/);
            // At least one entry first (a file of none has no rows to snapshot).
            const at = 2 + (cut % (lines.length - 1));
            writeFileSync(file, lines.slice(0, at).join(""));
            through(indexFile, file, (s) => expectLikeFile(s, file, depth, pick));
            // The first tree top wrote the snapshot it then read.
            expect(snapshotRows(indexFile)).toBe(at - 1);
            // The rows a catch-up adds come after the snapshot: read from the table.
            appendFileSync(file, lines.slice(at).join(""));
            through(indexFile, file, (s) => expectLikeFile(s, file, depth, pick));
            // A damaged line: the index answers nothing; mended, the tree is the file's again.
            const damaged = [...lines];
            damaged[1] = `${"x".repeat((lines[1] as string).length - 1)}\n`;
            writeFileSync(file, damaged.join(""));
            through(indexFile, file, (s) => expect(s).toBeNull(), true);
            writeFileSync(file, log.jsonl);
            through(indexFile, file, (s) => expectLikeFile(s, file, depth, pick));
            // Rewritten with another session: no snapshot of the old rows answers for it.
            writeFileSync(file, other.jsonl);
            through(indexFile, file, (s) => expectLikeFile(s, file, depth, pick));
          },
        ),
        PARAMS,
      ),
    );
  });
});
