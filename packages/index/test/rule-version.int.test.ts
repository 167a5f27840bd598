/**
 * SPEC §14 F2: a state saved under one version of a rule is never reused under another. Each
 * fold's codec carries its rule's version (core's info and shape folds, the plugins' usage
 * totals); bumping one makes every stored answer, saved fold state and usage state be made
 * again from the files, settled rows included.
 */

import { join } from "node:path";
import { type FoldCodec, sessionInfoCodec, sessionShapeCodec } from "@pi-sessions/core/internal";
import { usageTotalsCodec } from "@pi-sessions/plugins";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { openSessionIndex } from "../src/index.js";
import { directListing, indexListing, sessionsFolder } from "./fault-helpers.js";
import { openLook } from "./sqlite-look.js";

/** Runs `use` with `codec`'s version one higher, as a new release of its rule would. */
async function withBumped(codec: FoldCodec<unknown>, use: () => Promise<void>): Promise<void> {
  const bumped = codec as { version: number };
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

for (const codec of [
  sessionInfoCodec,
  sessionShapeCodec,
  usageTotalsCodec,
] as FoldCodec<unknown>[]) {
  test(`a new version of the ${codec.name} rule rebuilds every stored answer and state`, async () => {
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
          .all(usageTotalsCodec.name) as { version: number }[]
      ).map((r) => r.version);
    expect(rules()).toHaveLength(1);
    expect(rules()[0]).toContain(`${codec.name}@${codec.version}`);
    expect(usageVersions()).toEqual([usageTotalsCodec.version]);
    const files = (look.prepare("SELECT count(*) AS n FROM files").get() as { n: number }).n;
    await withBumped(codec, async () => {
      const indexed = index.counts.indexed;
      const statOnly = index.statOnly;
      await index.sync(root);
      // Every file read again from its start; none answered by its (settled) stat.
      expect(index.counts.indexed - indexed).toBe(files);
      expect(index.statOnly - statOnly).toBe(0);
      expect(rules()).toEqual([expect.stringContaining(`${codec.name}@${codec.version}`)]);
      expect(usageVersions()).toEqual([usageTotalsCodec.version]);
      expect(await indexListing(index, root)).toEqual(await directListing(root));
    });
    look.close();
    index.close();
  });
}
