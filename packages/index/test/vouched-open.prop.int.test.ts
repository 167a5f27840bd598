/**
 * A session opened from the layout the index vouches for (`SessionIndex.columnsFor`, what pi's
 * launcher hands core) equals the checked open of the same file, whatever happened to it since
 * it was indexed: appends (regular ones, which the index catches up, and damaging ones), torn
 * and completed lines, truncation, an earlier or the last line rewritten in place with size and
 * mtime kept, a rename over the file, a `touch` (a file rewritten is looked at, by the open or
 * a sync, before it grows again: the rule proves a grown file's earlier lines by its last
 * indexed line, SPEC §14 F1). Entries, tree, leaf, branch, context, name,
 * diagnostics and lines must be the same; where the index cannot vouch, the open checks the
 * file. Every file is opened as columns (`PI_SESSIONS_COLUMNS_FROM_BYTES=0`), as a giant one is.
 */

import { renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type ColumnsFor, SessionManager } from "@pi-sessions/core";
import { COLUMNS_FROM_BYTES_ENV, listAllSessions } from "@pi-sessions/core/internal";
import { fcOptions, tempDir, withEnv } from "@pi-sessions/test-utils";
import { sessionLogArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { expect, test } from "vitest";
import { openSessionIndex, type SessionIndex } from "../src/index.js";
import { applyStep, fileTextArb, stepArb, writeFolder } from "./folder-arbitraries.js";

withEnv(COLUMNS_FROM_BYTES_ENV, "0");

/** What a manager answers about its session, everything read. */
function answers(sm: SessionManager) {
  const entries = sm.getEntries();
  return {
    header: sm.getHeader(),
    entries,
    lines: entries.map((_, i) => sm.getEntryLineNumber(i)),
    diagnostics: sm.getLoadDiagnostics(),
    leaf: sm.getLeafId(),
    tree: sm.getTree(),
    branch: sm.getBranch(),
    firstBranch: entries[0] === undefined ? [] : sm.getBranch(entries[0].id),
    context: sm.buildSessionContext(),
    name: sm.getSessionName(),
    count: sm.getEntryCount(),
  };
}

/** Opens `path` with and without `columnsFor`; both answer the same. Whether the index vouched. */
function sameOpen(path: string, index: SessionIndex): boolean {
  let vouched = false;
  const columnsFor: ColumnsFor = (p, stats) => {
    const layout = index.columnsFor(p, stats);
    vouched = layout !== undefined;
    return layout;
  };
  // An open migrates a legacy file (rewrites it, once): done first, so both opens see one file.
  SessionManager.open(path, dirname(path)).close();
  const checked = SessionManager.open(path, dirname(path));
  const expected = answers(checked);
  checked.close();
  const fromIndex = SessionManager.open(path, dirname(path), undefined, { columnsFor });
  try {
    expect(answers(fromIndex)).toEqual(expected);
  } finally {
    fromIndex.close();
  }
  return vouched;
}

/** How often the index vouched over all runs (the property must exercise that path). */
const tally = { vouched: 0, opens: 0 };

/** A regular session's lines after its header, as a regular append (fresh ids, a new root). */
const regularAppendArb = sessionLogArb({ minEntries: 1, maxEntries: 6 }).map((log) =>
  log.jsonl.slice(log.jsonl.indexOf("\n") + 1),
);

/** A change: one of the folder steps, a regular append, or a rename of another file over it. */
const changeArb = fc.oneof(
  { weight: 3, arbitrary: stepArb.map((step) => ({ kind: "step" as const, step })) },
  { weight: 2, arbitrary: regularAppendArb.map((text) => ({ kind: "grow" as const, text })) },
  { weight: 1, arbitrary: fileTextArb.map((text) => ({ kind: "rename-over" as const, text })) },
);

const RUNS = fcOptions(60).numRuns;
test(`an open from the index equals the checked open through every kind of change its rule sees (a rewrite looked at before the file grows) (numRuns ${RUNS})`, async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fileTextArb, { minLength: 1, maxLength: 3 }),
      fc.array(fc.tuple(changeArb, fc.nat(), fc.boolean()), { minLength: 1, maxLength: 6 }),
      async (texts, changes) => {
        const root = join(tempDir(), "sessions");
        let paths = writeFolder(root, texts);
        const index = openSessionIndex({ file: join(tempDir(), "index.sqlite") });
        try {
          await index.sync(root);
          let rewritten = false;
          for (let n = 0; n <= changes.length; n++) {
            for (const info of await listAllSessions(root, { cache: null })) {
              tally.opens++;
              if (sameOpen(info.path, index)) tally.vouched++;
            }
            // The rule proves a grown file's earlier lines by its last indexed line alone
            // (SPEC §14 F1): a rewrite in place must be looked at (above: the open falls back)
            // before the file grows, else it is outside what the index can tell.
            if (rewritten) await index.sync(root);
            const change = changes[n];
            if (change === undefined) break;
            const [what, pick, resync] = change;
            rewritten =
              what.kind === "rename-over" ||
              (what.kind === "step" &&
                ["same-stamp", "same-stamp-middle", "truncate", "replace"].includes(
                  what.step.kind,
                ));
            const target = paths[pick % Math.max(1, paths.length)];
            if (what.kind === "step") paths = applyStep(root, paths, what.step, texts.length + n);
            else if (target === undefined) continue;
            else if (what.kind === "grow") writeFileSync(target, what.text, { flag: "a" });
            else {
              writeFileSync(`${target}.new`, what.text);
              renameSync(`${target}.new`, target);
            }
            if (resync) await index.sync(root);
          }
        } finally {
          index.close();
        }
      },
    ),
    fcOptions(60),
  );
  // The vouched path ran, often: a property that always fell back would prove nothing.
  expect(tally.vouched).toBeGreaterThan(tally.opens / 10);
}, 600_000);
