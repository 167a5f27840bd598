/**
 * Redacting leaves nothing behind in the process (regression: secretlint 13.1.0's profiler,
 * on by default, kept a performance mark per rule of every `lintSource` call for good, so a
 * process redacting many sessions grew without bound).
 */
import { performance } from "node:perf_hooks";
import { redactSession } from "@pi-sessions/redact";
import { describe, expect, it } from "vitest";

const HEADER = '{"type":"session","version":3,"id":"s1","timestamp":"t","cwd":"/w"}';
const LINE = JSON.stringify({
  type: "custom",
  id: "e1",
  parentId: null,
  timestamp: "t",
  customType: "x",
  data: "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc and https://deploy:Qw8Er7Ty6U@ci.acme.io",
});

describe("the process after redacting", () => {
  it("holds no more performance entries after 20 redactions than after one", async () => {
    await redactSession(`${HEADER}\n${LINE}\n`);
    const before = performance.getEntries().length;
    for (let i = 0; i < 20; i++) {
      const r = await redactSession(`${HEADER}\n${LINE}\n`);
      expect(r.report.secrets).toBe(2);
    }
    expect(performance.getEntries().length).toBe(before);
  });
});
