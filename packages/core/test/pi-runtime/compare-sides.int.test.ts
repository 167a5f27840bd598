/**
 * The comparison machinery of the pi-runtime tests on hand-made side outputs: normalising
 * makes two sides with other random ids, times, roots and durations equal; a real change
 * still shows; and the [Fix] rows accept exactly the differences they describe.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compareSides, type Difference } from "./compare-sides.js";
import { rowsAccepting } from "./fix-rows.js";
import type { SideLog } from "./run-side.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

interface FakeSide {
  session: string;
  ids: [string, string, string, string];
  /** Start of the side's clock (ms); the side's times are start, start + 1000, … */
  start: number;
  /** Which entry the last one hangs from: "previous" (ours) or "leaf" (pi's silent fork). */
  lastParent: "previous" | "leaf";
  answer?: string;
  duration?: number;
}

/** Writes one side's session file the way the runtime would, and returns its log. */
function writeSide(side: FakeSide): SideLog {
  const root = mkdtempSync(join(tmpdir(), "pi-runtime-"));
  roots.push(root);
  const iso = (k: number) => new Date(side.start + 1000 * k).toISOString();
  const dir = join(root, "agent", "sessions", `--${root.slice(1).replaceAll("/", "-")}-work--`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${iso(0).replace(/[:.]/g, "-")}_${side.session}.jsonl`);
  const [a, b, c, d] = side.ids;
  const user = { role: "user", content: "hi", timestamp: side.start + 1000 };
  const assistant = {
    role: "assistant",
    content: side.answer ?? "hello",
    durationMs: side.duration ?? 5,
  };
  const records = [
    { type: "session", version: 3, id: side.session, timestamp: iso(0), cwd: `${root}/work` },
    { type: "message", id: a, parentId: null, timestamp: iso(1), message: user },
    { type: "message", id: b, parentId: a, timestamp: iso(1), message: assistant },
    {
      type: "custom",
      customType: "flow-shutdown",
      data: { reason: "resume" },
      id: c,
      parentId: b,
      timestamp: iso(2),
    },
    {
      type: "custom",
      customType: "next",
      id: d,
      parentId: side.lastParent === "previous" ? c : b,
      timestamp: iso(3),
    },
  ];
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
  chmodSync(file, 0o600);
  const info = { path: file, id: side.session, cwd: `${root}/work`, modified: iso(1) };
  return {
    root,
    sessionFiles: [file],
    extraFiles: [],
    listing: [],
    list: [info],
    listAll: [info],
  } as unknown as SideLog;
}

const pi: FakeSide = {
  session: "01a0c450-6c00-74ac-8a97-e353e23e987f",
  ids: ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f", "12345678"],
  start: Date.UTC(2026, 0, 1),
  lastParent: "previous",
};
const ours: FakeSide = {
  session: "01b7a000-0000-7000-8000-000000000abc",
  ids: ["abcdef01", "23456789", "fedcba98", "7654abcd"],
  start: Date.UTC(2027, 5, 6, 7, 8, 9),
  lastParent: "previous",
  duration: 17,
};

const kinds = (ds: Difference[]) => ds.map((d) => (d.kind === "line" ? d.field : d.kind));

describe("compareSides on hand-made sides", () => {
  it("is blind to ids, times, roots and durations, which are numbered by first appearance", () => {
    const result = compareSides(writeSide(pi), writeSide(ours));
    expect(result.differences).toEqual([]);
    expect(result.lines).toBe(6);
  });

  it("shows a changed answer at its JSON path", () => {
    const result = compareSides(writeSide(pi), writeSide({ ...ours, answer: "HELLO" }));
    expect(kinds(result.differences)).toEqual(["$.message.content"]);
    expect(result.differences.flatMap(rowsAccepting)).toEqual([]);
  });

  it("accepts W7 (no silent fork) only where ours continues from the entry above", () => {
    const forked = compareSides(writeSide({ ...pi, lastParent: "leaf" }), writeSide(ours));
    expect(kinds(forked.differences)).toEqual(["$.parentId"]);
    expect(forked.differences.flatMap(rowsAccepting).map((r) => r.title)).toEqual([
      "no silent fork",
    ]);
    // The other way round (ours forks, pi continues) is a bug of ours, not a [Fix] row.
    const reversed = compareSides(writeSide(pi), writeSide({ ...ours, lastParent: "leaf" }));
    expect(reversed.differences.flatMap(rowsAccepting)).toEqual([]);
  });

  it("accepts W22 for ours' private modes, not for any other mode of ours", () => {
    const piLog = writeSide(pi);
    chmodSync(piLog.sessionFiles[0] as string, 0o644);
    const modes = compareSides(piLog, writeSide(ours)).differences;
    expect(modes).toMatchObject([{ kind: "mode", pi: "644", ours: "600" }]);
    expect(modes.flatMap(rowsAccepting).map((r) => r.row)).toEqual(["W22"]);
    const oursLog = writeSide(ours);
    chmodSync(oursLog.sessionFiles[0] as string, 0o640);
    const wrong = compareSides(piLog, oursLog).differences;
    expect(wrong.flatMap(rowsAccepting)).toEqual([]);
  });
});
