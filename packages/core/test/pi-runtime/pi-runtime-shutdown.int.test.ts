/**
 * pi's real runtime over pi's SessionManager and over ours (as pi-runtime.int.test.ts),
 * with an extension that appends an entry on every `session_shutdown` while pi reopens
 * files this process wrote (shutdown-flow.ts). pi's own flows must keep working on ours
 * (SPEC W7: within one process the lock must not block them) and nothing may fork silently.
 */
import { describe, it } from "vitest";
import { compareFlow } from "./compare-flow.js";

describe("pi's agent runtime with an extension that writes on session_shutdown", () => {
  // Two session files: the first and the /new one.
  it("reopen, /new and /resume: same files and listings up to [Fix] rows", () =>
    compareFlow("shutdown-writer", {
      minSessionFiles: 2,
      customTypes: ["flow-shutdown"],
      mustShow: ["no silent fork"],
    }));
});
