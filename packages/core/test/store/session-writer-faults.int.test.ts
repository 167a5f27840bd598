import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SessionFileWriter } from "../../src/store/session-writer.js";
import { faultFs, tempDir } from "./helpers.js";

// Runs per property (FC_RUNS overrides); FC_SEED and FC_PATH replay a reported failure.
const RUNS = fcOptions(300);
const HEADER = '{"type":"session","version":3,"id":"p"}\n';
const TORN = '{"type":"custom","id":"tor';

/** One append: its line, and whether (and where, in ‰ of its bytes) the write fails. */
interface Step {
  readonly line: string;
  readonly failAtPermille: number | null;
  readonly truncateFails: boolean;
}

const stepArb = (allowTruncateFailure: boolean): fc.Arbitrary<Step> =>
  fc.record({
    line: fc
      .record({ id: fc.nat(), text: fc.string({ unit: "grapheme", maxLength: 60 }) })
      .map((v) => `${JSON.stringify({ type: "custom", ...v })}\n`),
    failAtPermille: fc.option(fc.integer({ min: 0, max: 999 }), { freq: 3 }),
    truncateFails: allowTruncateFailure ? fc.boolean() : fc.constant(false),
  });

/** Runs `steps` against a real file; returns the file bytes, the model bytes and the successes. */
function runSteps(dir: string, run: number, torn: boolean, steps: readonly Step[]) {
  const path = join(dir, `run-${run}.jsonl`);
  const initial = torn ? HEADER + TORN : HEADER;
  writeFileSync(path, initial);
  const fs = faultFs();
  fs.faults.writeSuffix = ".jsonl"; // fail the session's writes, not its lock file's
  const writer = SessionFileWriter.attach(
    path,
    { size: Buffer.byteLength(initial), endsWithNewline: !torn },
    { fs },
  );
  // Model: the exact bytes the file must hold, and whether its tail is an unfinished line.
  let model = Buffer.from(initial);
  let dirty = torn;
  const succeeded: string[] = [];
  try {
    for (const step of steps) {
      const bytes = Buffer.from((dirty ? "\n" : "") + step.line);
      const failAt =
        step.failAtPermille === null
          ? undefined
          : Math.floor((step.failAtPermille * bytes.length) / 1000);
      fs.faults.writeBudget = failAt;
      fs.faults.failTruncate = step.truncateFails;
      let ok = true;
      try {
        writer.appendRecord(step.line.slice(0, -1));
      } catch {
        ok = false;
      }
      fs.faults.writeBudget = undefined;
      fs.faults.failTruncate = false;
      expect(ok).toBe(failAt === undefined);
      if (ok) {
        model = Buffer.concat([model, bytes]);
        dirty = false;
        succeeded.push(step.line);
      } else if (step.truncateFails && failAt !== undefined && failAt > 0) {
        model = Buffer.concat([model, bytes.subarray(0, failAt)]);
        dirty = bytes[failAt - 1] !== 0x0a;
      }
    }
    const file = readFileSync(path);
    // The writer knows the bytes on disk and whether they end in a fragment: one more append
    // passes its size check and lands after a `\n` exactly when the tail is unfinished.
    writer.appendRecord("{}");
    const end = Buffer.from(`${dirty ? "\n" : ""}{}\n`);
    expect(readFileSync(path)).toEqual(Buffer.concat([file, end]));
    return { file, model, succeeded, initial };
  } finally {
    writer.close();
  }
}

describe("SessionFileWriter under injected write failures (W1, W2)", () => {
  it(`the file is exactly the header plus the successful appends (numRuns ${RUNS.numRuns})`, () => {
    const dir = tempDir();
    let run = 0;
    fc.assert(
      fc.property(fc.boolean(), fc.array(stepArb(false), { maxLength: 12 }), (torn, steps) => {
        const { file, succeeded, initial } = runSteps(dir, run++, torn, steps);
        const fix = torn && succeeded.length > 0 ? "\n" : "";
        expect(file.toString("utf8")).toBe(initial + fix + succeeded.join(""));
      }),
      RUNS,
    );
  });

  it(`when the undo fails too, every later success is still a whole line (numRuns ${RUNS.numRuns})`, () => {
    const dir = tempDir();
    let run = 0;
    fc.assert(
      fc.property(fc.boolean(), fc.array(stepArb(true), { maxLength: 12 }), (torn, steps) => {
        const { file, model, succeeded } = runSteps(dir, run++, torn, steps);
        expect(file.toString("latin1")).toBe(model.toString("latin1"));
        // The successful lines appear as complete lines, in order (fragments are their own lines).
        const lines = file
          .toString("utf8")
          .split("\n")
          .map((l) => `${l}\n`);
        let next = 0;
        for (const l of lines) if (next < succeeded.length && l === succeeded[next]) next++;
        expect(next).toBe(succeeded.length);
      }),
      RUNS,
    );
  });
});

describe("SessionFileWriter on a full file system (W2, real ENOSPC)", () => {
  it("keeps exactly the successful appends on a 64 KiB tmpfs", (ctx) => {
    const mountPoint = join(tempDir(), "tiny");
    mkdirSync(mountPoint);
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", mountPoint], {
        stdio: "ignore",
      });
    } catch {
      ctx.skip("cannot mount a tmpfs here (needs root); the injected-failure tests cover W2");
      return;
    }
    try {
      const path = join(mountPoint, "s.jsonl");
      const writer = SessionFileWriter.createNew(path, [HEADER]);
      const ok: string[] = [];
      let failures = 0;
      try {
        for (let i = 0; i < 200 && failures === 0; i++) {
          const entry = JSON.stringify({ type: "custom", id: `e${i}`, pad: "y".repeat(580) });
          try {
            writer.appendRecord(entry);
            ok.push(`${entry}\n`);
          } catch (error) {
            expect((error as NodeJS.ErrnoException).code).toBe("ENOSPC");
            failures++;
          }
        }
        expect(failures).toBe(1);
        expect(readFileSync(path, "utf8")).toBe(HEADER + ok.join(""));
        // The undo gave the partial bytes back; a line that fits in what is left succeeds.
        writer.appendRecord("{}");
        expect(readFileSync(path, "utf8")).toBe(`${HEADER}${ok.join("")}{}\n`);
      } finally {
        writer.close();
      }
    } finally {
      execFileSync("umount", [mountPoint]);
      rmdirSync(mountPoint);
    }
  });
});
