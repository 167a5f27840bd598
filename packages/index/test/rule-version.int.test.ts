/**
 * SPEC §14 F2: a state saved under one version of a rule is never reused under another. Each
 * fold the index saves declares its rule's version (core's info and shape folds, the plugins'
 * usage-totals projection); bumping one makes every stored answer, saved fold state and
 * usage state be made again from the files, settled rows included.
 */

import { join } from "node:path";
import type { VersionedFold } from "@pi-sessions/core";
import { sessionInfoCodec, sessionShapeCodec } from "@pi-sessions/core/internal";
import { usageTotals, usageTotalsRule } from "@pi-sessions/plugins";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { openSessionIndex } from "../src/index.js";
import { directListing, indexListing, sessionsFolder } from "./fault-helpers.js";
import { openLook } from "./sqlite-look.js";

/** Runs `use` with `fold`'s version one higher, as a new release of its rule would. */
async function withBumped(
  fold: Pick<VersionedFold<unknown>, "name" | "version">,
  use: () => Promise<void>,
): Promise<void> {
  const bumped = fold as { version: number };
  const before = bumped.version;
  bumped.version = before + 1;
  try {
    await use();
  } finally {
    bumped.version = before;
  }
}

const SETTLE_MS = 40;
const settle = () => new Promise((done) => setTimeout(done, 2 * SETTLE_MS));

/**
 * The rules as the index reads them. The usage projection declares its version from
 * `usageTotalsRule` (the index's rules key reads that without loading the projection), so
 * bumping the rule bumps the projection: the test checks that it does.
 */
const RULES: Pick<VersionedFold<unknown>, "name" | "version">[] = [
  sessionInfoCodec,
  sessionShapeCodec,
  usageTotalsRule,
];

for (const fold of RULES) {
  test(`a new version of the ${fold.name} rule rebuilds every stored answer and state`, async () => {
    const root = sessionsFolder();
    const file = join(tempDir(), "index.sqlite");
    const index = openSessionIndex({ file, settleMs: SETTLE_MS });
    await index.sync(root);
    await settle();
    await indexListing(index, root); // the rows settle: their stat alone would vouch for them
    const look = openLook(file, { readonly: true });
    const rules = () =>
      (look.prepare("SELECT DISTINCT rules FROM files").all() as { rules: string }[]).map(
        (r) => r.rules,
      );
    const usageVersions = () =>
      (
        look
          .prepare("SELECT DISTINCT version FROM file_folds WHERE name = ?")
          .all(usageTotals.name) as { version: number }[]
      ).map((r) => r.version);
    expect(rules()).toHaveLength(1);
    expect(rules()[0]).toContain(`${fold.name}@${fold.version}`);
    expect(usageVersions()).toEqual([usageTotals.version]);
    const files = (look.prepare("SELECT count(*) AS n FROM files").get() as { n: number }).n;
    await withBumped(fold, async () => {
      const indexed = index.counts.indexed;
      const statOnly = index.statOnly;
      expect(usageTotals.version).toBe(usageTotalsRule.version);
      await index.sync(root);
      // Every file read again from its start; none answered by its (settled) stat.
      expect(index.counts.indexed - indexed).toBe(files);
      expect(index.statOnly - statOnly).toBe(0);
      expect(rules()).toEqual([expect.stringContaining(`${fold.name}@${fold.version}`)]);
      expect(usageVersions()).toEqual([usageTotals.version]);
      expect(await indexListing(index, root)).toEqual(await directListing(root));
    });
    look.close();
    index.close();
  });
}
