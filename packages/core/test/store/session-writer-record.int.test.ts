import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SessionFileWriter } from "../../src/store/session-writer.js";
import { nodeStoreFs, type StoreFs } from "../../src/store/store-fs.js";
import { faultFs, tempDir } from "./helpers.js";

// FC_RUNS overrides the run count and FC_SEED / FC_PATH replay a failure, as everywhere.
const settings = fcOptions(200);

const HEADER = '{"type":"session","version":3,"id":"p"}\n';
const TORN = '{"type":"custom","id":"tor';

/** A session file holding `initial`, and a writer attached to it. */
function attached(dir: string, name: string, initial: string, fs?: StoreFs) {
  const path = join(dir, name);
  writeFileSync(path, initial);
  const writer = SessionFileWriter.attach(
    path,
    { size: Buffer.byteLength(initial), endsWithNewline: initial.endsWith("\n") },
    { fs },
  );
  return { path, writer };
}

describe("SessionFileWriter.appendRecord", () => {
  it(`writes each record and a newline, after a newline ending a torn tail (${settings.numRuns} runs)`, () => {
    const dir = tempDir();
    let run = 0;
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.string({ unit: "grapheme", maxLength: 80 }), { minLength: 1, maxLength: 6 }),
        (torn, texts) => {
          run++;
          const initial = torn ? HEADER + TORN : HEADER;
          const { path, writer } = attached(dir, `record-${run}.jsonl`, initial);
          const records = texts.map((text) => JSON.stringify({ type: "custom", text }));
          for (const json of records) writer.appendRecord(json);
          const expected = `${initial}${torn ? "\n" : ""}${records.map((r) => `${r}\n`).join("")}`;
          expect(readFileSync(path, "utf8")).toBe(expected);
          // The writer knows the size it left: one more record passes the tail check.
          writer.appendRecord("{}");
          expect(readFileSync(path, "utf8")).toBe(`${expected}{}\n`);
          writer.close();
        },
      ),
      settings,
    );
  });

  it("undoes a partial write and leaves the file as it was", () => {
    const dir = tempDir();
    const fs = faultFs();
    fs.faults.writeSuffix = ".jsonl";
    const { path, writer } = attached(dir, "s.jsonl", HEADER, fs);
    writer.appendRecord('{"type":"custom","id":"a"}');
    fs.faults.writeBudget = 7;
    expect(() => writer.appendRecord(`{"type":"custom","text":"${"é".repeat(50)}"}`)).toThrow(
      /ENOSPC/,
    );
    fs.faults.writeBudget = undefined;
    writer.appendRecord('{"type":"custom","id":"b"}');
    expect(readFileSync(path, "utf8")).toBe(
      `${HEADER}{"type":"custom","id":"a"}\n{"type":"custom","id":"b"}\n`,
    );
    writer.close();
  });

  it("writes a line larger than the shared scratch buffer", () => {
    const dir = tempDir();
    const { path, writer } = attached(dir, "s.jsonl", HEADER);
    const big = JSON.stringify({ type: "custom", text: "ü".repeat(1_200_000) });
    writer.appendRecord(big);
    writer.appendRecord('{"type":"custom","id":"after"}');
    expect(readFileSync(path, "utf8")).toBe(`${HEADER}${big}\n{"type":"custom","id":"after"}\n`);
    writer.close();
  });

  it("keeps both lines whole when a write reenters another writer", () => {
    const dir = tempDir();
    const inner = attached(dir, "inner.jsonl", HEADER);
    let reentered = false;
    let sessionFd: number | undefined;
    const fs: StoreFs = {
      ...nodeStoreFs,
      openSync(path, flags, mode) {
        const fd = nodeStoreFs.openSync(path, flags, mode);
        if (path.endsWith("outer.jsonl")) sessionFd = fd;
        return fd;
      },
      // While the outer line sits in the scratch buffer, another writer appends.
      writeSync(fd, buffer, offset, length) {
        if (fd === sessionFd && !reentered) {
          reentered = true;
          inner.writer.appendRecord('{"type":"custom","id":"inner"}');
        }
        return nodeStoreFs.writeSync(fd, buffer, offset, length);
      },
    };
    const outer = attached(dir, "outer.jsonl", HEADER, fs);
    outer.writer.appendRecord('{"type":"custom","id":"outer"}');
    expect(reentered).toBe(true);
    expect(readFileSync(outer.path, "utf8")).toBe(`${HEADER}{"type":"custom","id":"outer"}\n`);
    expect(readFileSync(inner.path, "utf8")).toBe(`${HEADER}{"type":"custom","id":"inner"}\n`);
    outer.writer.close();
    inner.writer.close();
  });
});
