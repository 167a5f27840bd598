/**
 * pi's real agent runtime (pi 1.6.0's SDK, the faux model, real read/bash tools, an inline
 * extension) runs one scripted flow twice, each in its own process: once over pi's own
 * SessionManager and once over ours, with every use of the class inside pi's runtime
 * redirected to ours (child-preload.ts, redirect-hooks.ts, session-manager-shim.ts). The
 * session files and listings of the two runs must be equal after normalising ids and times,
 * except for differences that SPEC §12 [Fix] rows require (fix-rows.ts). The flow is
 * runtime-flow.ts; compare-flow.ts runs and checks it.
 */
import { describe, it } from "vitest";
import { compareFlow } from "./compare-flow.js";

describe("pi's agent runtime over pi's SessionManager and over ours", () => {
  it(
    "main flow (tools, models, extension, compaction, tree, labels, reopen, fork, clone, " +
      "/new, /resume, forkFrom, import, list): same files and listings up to [Fix] rows",
    // Six session files: the first, fork, clone, /new, forkFrom and the imported copy.
    () =>
      compareFlow("main", {
        minSessionFiles: 6,
        customTypes: ["flow-stamp", "flow-resumed"],
        mustShow: ["private file modes", "lock file"],
      }),
  );
});
