import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SessionFileWriter } from "../../src/store/session-writer.js";
import { faultFs, runChild, storeModuleUrl, tempDir } from "./helpers.js";

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

/**
 * The appends of the full-file test, run in a child limited to `blocks` of file size: lines of
 * 512 bytes until one fails, the file as it is then, and one small line after. Every limit is a
 * multiple of 512 bytes, so the failing line is always cut partway (its first 512 - 39 bytes
 * fit) and the small line always fits in what the undo gave back. (The limit is 128 or 256 KiB,
 * by the shell's block size: room for tsx's cache files, which the child writes too.)
 */
function appendUntilFull(path: string, blocks: number) {
  const code = `
    import { readFileSync } from "node:fs";
    import { SessionFileWriter } from ${JSON.stringify(storeModuleUrl("session-writer"))};
    const path = ${JSON.stringify(path)};
    const writer = SessionFileWriter.createNew(path, [${JSON.stringify(HEADER)}]);
    const ok = [];
    const codes = [];
    for (let i = 0; i < 2000 && codes.length === 0; i++) {
      const entry = JSON.stringify({ type: "custom", id: "e" + String(i).padStart(4, "0"), pad: "" });
      const line = entry.slice(0, -2) + "y".repeat(511 - entry.length) + '"}';
      try {
        writer.appendRecord(line);
        ok.push(line + "\\n");
      } catch (error) {
        codes.push(error.code);
      }
    }
    const afterFailure = readFileSync(path, "utf8");
    writer.appendRecord("{}");
    writer.close();
    process.stdout.write(JSON.stringify({ ok, codes, afterFailure }));
  `;
  const child = runChild(code, { fileSizeBlocks: blocks });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as { ok: string[]; codes: string[]; afterFailure: string };
}

describe("SessionFileWriter on a full file (W2, real EFBIG from a file size limit)", () => {
  it("keeps exactly the successful appends when the kernel refuses the rest of a line", () => {
    const path = join(tempDir(), "s.jsonl");
    const { ok, codes, afterFailure } = appendUntilFull(path, 256);
    expect(codes).toEqual(["EFBIG"]);
    expect(ok.length).toBeGreaterThan(10);
    for (const line of ok) expect(Buffer.byteLength(line)).toBe(512);
    expect(afterFailure).toBe(HEADER + ok.join(""));
    // The undo gave the partial bytes back; a line that fits in what is left succeeded.
    expect(readFileSync(path, "utf8")).toBe(`${HEADER}${ok.join("")}{}\n`);
  });
});
