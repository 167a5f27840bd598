/**
 * The usage oracle's branch of each file (`branchRecords`, which walks the generator's facts
 * with core's tree walk) is the branch pi 1.6 itself reports for the written file: so the
 * per-branch totals our engine is checked against do not rest on our own walk alone.
 *
 * Runs: `FC_RUNS` scales them (default in the title); replay with `FC_SEED` / `FC_PATH`.
 */
import { join } from "node:path";
import { fcOptions, fcRuns, loadReference, tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { branchRecords, sessionFolderArb, writeFolder } from "../../src/internal.js";

interface ReferenceModule {
  SessionManager: { open(path: string, dir?: string): { getBranch(): { id: string }[] } };
}

const ref = await loadReference<ReferenceModule>();

describe("the usage oracle's branches", () => {
  it(`equal pi's getBranch() of every written file (${fcRuns(100)} runs)`, () => {
    const base = tempDir();
    let n = 0;
    let compared = 0;
    fc.assert(
      fc.property(
        sessionFolderArb({ damaged: false, legacy: false, values: ["duplicate-lines"] }),
        (folder) => {
          const root = join(base, `r${n++}`);
          writeFolder(folder, root);
          for (const file of folder.files) {
            const sm = ref.SessionManager.open(join(root, file.path), join(root, "out"));
            const want = sm.getBranch().map((e) => e.id);
            expect(
              branchRecords(file).map((r) => r.entry.id),
              file.path,
            ).toEqual(want);
            compared += want.length;
          }
        },
      ),
      fcOptions(100),
    );
    expect(compared).toBeGreaterThan(0);
  });
});
