/**
 * The line bound of the read-only commands, with a small bound set through
 * `PI_SESSIONS_MAX_LINE_BYTES` (the default, 32 MiB, and what a 200 MB line costs are measured
 * in `pnpm bench`: bench/long-line-bench.ts). A line over the bound is left unread: `tree`,
 * `context`, `usage` and `export` still answer from the other lines and say, in one stderr line,
 * which line was left out and how big it is; `check` reports it as a problem with its size;
 * `check --repair` still keeps it byte for byte. Without the bound the line is read as before.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  assistantMessage,
  tempDir,
  textBlock,
  usageRecord,
  userMessage,
} from "@pi-sessions/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { runBin } from "./helpers/run-bin.js";

const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
/** A message entry line. */
const entry = (id: string, parentId: string | null, message: unknown, s: number) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: at(s), message });
const user = (id: string, parentId: string | null, text: string, s: number) =>
  entry(id, parentId, userMessage(text, s), s);
const assistant = (id: string, parentId: string, text: string, s: number) =>
  entry(
    id,
    parentId,
    assistantMessage({
      content: [textBlock(text)],
      usage: usageRecord({ input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }),
      timestamp: s,
    }),
    s,
  );

const BOUND = 4096;
const LONG = user("big00000", "a1000000", `pasted: ${"lorem ipsum ".repeat(6000)}`, 3);
const LINES = [
  JSON.stringify({
    type: "session",
    version: 3,
    id: "0b0und00-0000-4000-8000-000000000000",
    timestamp: at(0),
    cwd: "/bound",
  }),
  user("u1000000", null, "Read the file I paste.", 1),
  assistant("a1000000", "u1000000", "Paste it.", 2),
  LONG,
  assistant("a2000000", "big00000", "Read it.", 4),
];
const bound = { env: { PI_SESSIONS_MAX_LINE_BYTES: String(BOUND) } };
const said = new RegExp(
  `^pi-sessions: .*: line 4: line of ${Buffer.byteLength(LONG)} bytes is longer than the ${BOUND}-byte limit of this reader; not read; its entry is left out here \\(PI_SESSIONS_MAX_LINE_BYTES raises the bound\\)$`,
  "m",
);

let path: string;
beforeAll(() => {
  path = join(tempDir(), "bound.jsonl");
  writeFileSync(path, `${LINES.join("\n")}\n`);
});

describe("a line over the bound", () => {
  it("tree, context, usage and export answer from the other lines and say which line was left out", async () => {
    const commands = [
      ["tree", path],
      ["context", path, "--no-index"],
      ["usage", path, "--no-index"],
      ["export", path],
    ];
    for (const args of commands) {
      const r = await runBin(args, bound);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(0);
      expect(r.stderr, args[0]).toMatch(said);
      expect(r.stdout, args[0]).not.toContain("lorem ipsum");
    }
    const tree = await runBin(["tree", path], bound);
    expect(tree.stdout).toContain("u1000000 user: Read the file I paste.");
    expect(tree.stdout).toContain("a2000000 assistant: Read it.");
  });

  it("check reports it with its size (exit 1); --repair keeps it byte for byte", async () => {
    const check = await runBin(["check", path], bound);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(
      /line 4 +line-too-long +line of \d+ bytes is longer than the 4096-byte limit/,
    );
    const torn = join(tempDir(), "torn.jsonl");
    writeFileSync(torn, LINES.join("\n")); // no final newline: fixable
    const repair = await runBin(["check", "--repair", torn], bound);
    expect(repair.stdout, repair.stderr).toContain("repaired");
    expect(readFileSync(torn, "utf8")).toBe(`${LINES.join("\n")}\n`);
  });

  it("without the bound the line is read as before; a bad bound is exit 2 in one line", async () => {
    const whole = await runBin(["tree", path]);
    expect(whole.code).toBe(0);
    expect(whole.stdout).toContain("big00000 user: pasted: lorem ipsum");
    expect(whole.stderr).toBe("");
    const bad = await runBin(["tree", path], { env: { PI_SESSIONS_MAX_LINE_BYTES: "lots" } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "pi-sessions: PI_SESSIONS_MAX_LINE_BYTES=lots: expected a whole number of bytes, at least 1\n",
    );
  });
});
