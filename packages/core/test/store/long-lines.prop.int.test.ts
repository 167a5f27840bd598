/**
 * The line bound of the read-only readers (`maxLineBytes`): a line longer than the bound is
 * reported with its exact size and line number and never parsed, and every other line reads
 * exactly as without a bound — whatever the line lengths, multi-byte characters cut at chunk
 * ends, and a last line with or without its newline.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readSession } from "../../src/store/read-session.js";
import { readSessionInfoSync } from "../../src/store/session-info.js";
import { tempDir } from "./helpers.js";

const HEADER =
  '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}';

/** One entry line whose text is `text`. */
function entryLine(id: string, parentId: string | null, text: string): string {
  const message = { role: "user", content: text, timestamp: 1 };
  return JSON.stringify({ type: "message", id, parentId, timestamp: "t", message });
}

/** Text of 1-, 2-, 3- and 4-byte characters, so the bound falls inside characters too. */
const textArb = fc
  .array(fc.constantFrom("a", "é", "€", "😀", " ", "\\"), { maxLength: 160 })
  .map((chars) => chars.join(""));

const PARAMS = fcOptions(300);

describe("readSession with maxLineBytes", () => {
  it(`reports each longer line with its size and reads every other line as an unbounded read does (numRuns ${PARAMS.numRuns})`, () => {
    const dir = tempDir();
    let n = 0;
    fc.assert(
      fc.property(
        fc.array(textArb, { maxLength: 12 }),
        fc.integer({ min: HEADER.length, max: 400 }),
        fc.boolean(),
        (texts, limit, finalNewline) => {
          const lines = [HEADER, ...texts.map((t, i) => entryLine(`e${i}`, null, t))];
          const path = join(dir, `s${n++}.jsonl`);
          writeFileSync(path, lines.join("\n") + (finalNewline ? "\n" : ""));
          const bounded = readSession(path, undefined, { maxLineBytes: limit });
          const whole = readSession(path);
          const bytes = lines.map((l) => Buffer.byteLength(l));
          const long = bytes.flatMap((b, i) => (b > limit ? [{ line: i + 1, bytes: b }] : []));
          expect(bounded.diagnostics.map((d) => [d.kind, d.line])).toEqual(
            long.map((l) => ["line-too-long", l.line]),
          );
          for (const [i, d] of bounded.diagnostics.entries()) {
            expect(d.message).toContain(`line of ${long[i]?.bytes} bytes`);
          }
          const kept = whole.entries.filter((_e, i) => (bytes[i + 1] as number) <= limit);
          expect(bounded.entries).toEqual(kept);
          expect(bounded.needsNewline).toBe(whole.needsNewline);
          expect(bounded.size).toBe(whole.size);
        },
      ),
      PARAMS,
    );
  });

  it("a file of one unfinished line over the bound is that line, not an empty file", () => {
    const path = join(tempDir(), "one.jsonl");
    writeFileSync(path, `${HEADER}\n${entryLine("a", null, "x".repeat(5000))}`);
    const read = readSession(path, undefined, { maxLineBytes: 200 });
    expect(read.entries).toEqual([]);
    expect(read.needsNewline).toBe(true);
    expect(read.diagnostics).toEqual([expect.objectContaining({ kind: "line-too-long", line: 2 })]);
  });

  it("a legacy (v1) file: the long line is reported, the others migrate as before", () => {
    const path = join(tempDir(), "v1.jsonl");
    const v1 = (text: string) =>
      JSON.stringify({ type: "message", timestamp: "t", message: { role: "user", content: text } });
    writeFileSync(
      path,
      `{"type":"session","id":"s","timestamp":"t","cwd":"/w"}\n${v1("a")}\n${v1("b".repeat(900))}\n${v1("c")}\n`,
    );
    const read = readSession(path, undefined, { maxLineBytes: 300 });
    expect(read.needsMigration).toBe(true);
    expect(
      read.entries.map((e) => (e as { message: { content: string } }).message.content),
    ).toEqual(["a", "c"]);
    expect(read.diagnostics.filter((d) => d.kind === "line-too-long").map((d) => d.line)).toEqual([
      3,
    ]);
  });

  it("the listing's info reader skips a long line too: the shape turns irregular", () => {
    const path = join(tempDir(), "info.jsonl");
    writeFileSync(
      path,
      `${HEADER}\n${entryLine("a", null, "first")}\n${entryLine("b", "a", "y".repeat(3000))}\n`,
    );
    const read = readSessionInfoSync(path, true, 500);
    expect(read?.info).toMatchObject({ firstMessage: "first", messageCount: 1 });
    expect(read?.info && "shape" in read.info && read.info.shape.regular).toBe(false);
  });
});
