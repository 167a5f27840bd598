/**
 * `check` through the real bin on a file with a wrong-typed field: the field problem is
 * reported per line as `line N: <path>: expected …, got …`, beside the structural problems in
 * their usual columns; the exit code is 1; unknown types, roles and fields are not problems;
 * `--repair` leaves the field as it is (nothing is guessed).
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { projectDir } from "./helpers/fixtures.js";
import { runBin } from "./helpers/run-bin.js";

const usage = {
  input: "400",
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 1,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const assistant = {
  role: "assistant",
  content: [{ type: "text", text: "hi" }],
  api: "a",
  provider: "p",
  model: "m",
  usage,
  stopReason: "stop",
  timestamp: 1,
};
const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
const RECORDS = [
  { type: "session", version: 3, id: "s1", timestamp: at(0), cwd: "/home/dev/fields" },
  {
    type: "message",
    id: "a1",
    parentId: null,
    timestamp: at(1),
    message: { role: "user", content: "q", timestamp: 1 },
  },
  // Unknown type, unknown role, unknown field: all round-trip, none is a problem.
  { type: "bookmark_v9", id: "a2", parentId: "a1", timestamp: at(2), note: { any: 1 } },
  {
    type: "message",
    id: "a3",
    parentId: "a2",
    timestamp: at(3),
    message: { role: "hologram" },
    extra: true,
  },
  // Line 5: the wrong-typed field.
  { type: "message", id: "a4", parentId: "a3", timestamp: at(4), message: assistant },
  // Line 6: a structural problem, reported as before.
  { type: "custom", customType: "x", id: "a5", parentId: "nowhere", timestamp: at(5) },
];

function writeSession(): string {
  const path = join(projectDir(tempDir(), "/home/dev/fields"), "s.jsonl");
  writeFileSync(path, `${RECORDS.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return path;
}

describe("check on a file with a wrong-typed field", () => {
  it("reports it per line, with the structural problem in its usual form, exit 1", async () => {
    const path = writeSession();
    const r = await runBin(["check", path]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe(`bad ${path}: 2 problems`);
    expect(lines[1]).toBe('    line 5: message.usage.input: expected number, got "400"');
    expect(lines[2]).toMatch(/^ {4}line 6 {5}dangling-parent {2}/);
    expect(r.stdout).toContain("checked 1 file: 1 with problems (2 problems, 0 fixable)");
  });

  it("gives the problem's kind, line and entry in --json, and --repair leaves the field", async () => {
    const path = writeSession();
    const before = readFileSync(path);
    const r = await runBin(["check", "--repair", path, "--json"]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout).files[0];
    expect(report.problems).toContainEqual({
      kind: "invalid-field",
      line: 5,
      entryId: "a4",
      message: 'message.usage.input: expected number, got "400"',
      fixable: false,
    });
    expect(report.repair).toBeUndefined();
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
