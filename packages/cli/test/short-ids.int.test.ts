/**
 * Session ids in `ls` and `search` tables through the real bin, on sessions whose UUIDv7 ids
 * share their first eight characters (pi sessions started within about a minute): every id
 * shown is distinct and `tree` resolves it back to its own session, whether the table lists
 * every session or only one directory's; `--json` keeps the full ids.
 */

import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { writeSession } from "./helpers/fixtures.js";
import { runBin } from "./helpers/run-bin.js";

/** Three sessions started in the same minute (two in one directory) and one later. */
const SESSIONS = [
  { id: "01a24370-1c2d-7a00-8000-00000000000a", cwd: "/home/dev/a", entry: "aaaa0001" },
  { id: "01a24370-9f00-7b00-8000-00000000000b", cwd: "/home/dev/a", entry: "bbbb0001" },
  { id: "01a24370-1c2e-7c00-8000-00000000000c", cwd: "/home/dev/b", entry: "cccc0001" },
  { id: "01a2a000-0000-7d00-8000-00000000000d", cwd: "/home/dev/a", entry: "dddd0001" },
] as const;

/** A root holding the sessions, each a header and one user message naming a shared word. */
function root(): string {
  const dir = tempDir("pi-sessions-short-ids-");
  for (const [i, s] of SESSIONS.entries()) {
    const at = `2026-12-01T10:0${i}:00.000Z`;
    const header = { type: "session", version: 3, id: s.id, timestamp: at, cwd: s.cwd };
    const message = {
      type: "message",
      id: s.entry,
      parentId: null,
      timestamp: at,
      message: { role: "user", content: `kumquat number ${i}`, timestamp: Date.parse(at) },
    };
    writeSession(
      dir,
      s.cwd,
      `${s.entry}.jsonl`,
      `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`,
    );
  }
  return dir;
}

/** The session ids a table shows, in order: the words that start as every id here does. */
function shownIds(stdout: string): string[] {
  return [...stdout.matchAll(/(?<=\s)01a2[0-9a-f-]*/g)].map((m) => m[0]);
}

/** Checks that each shown id is distinct and `tree` resolves it to the session it stands for. */
async function expectResolvable(dir: string, shown: readonly string[]): Promise<void> {
  expect(new Set(shown).size).toBe(shown.length);
  for (const prefix of shown) {
    const session = SESSIONS.find((s) => s.id.startsWith(prefix));
    expect(session, prefix).toBeDefined();
    const r = await runBin(["tree", prefix, "--dir", dir, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const ids = (JSON.parse(r.stdout) as { nodes: { id: string }[] }).nodes.map((n) => n.id);
    expect(ids).toEqual([session?.entry]);
  }
}

describe("session ids in tables", () => {
  it("ls --all shows the shortest prefix each session can be named by, with and without the index", async () => {
    const dir = root();
    for (const index of [[], ["--no-index"]]) {
      const r = await runBin(["ls", "--all", "--dir", dir, ...index]);
      expect(r.code, r.stderr).toBe(0);
      const shown = shownIds(r.stdout);
      expect([...shown].sort()).toEqual([
        "01a24370-1c2d",
        "01a24370-1c2e",
        "01a24370-9",
        "01a2a000",
      ]);
      await expectResolvable(dir, shown);
    }
  });

  it("ls of one directory measures against the sessions of every directory", async () => {
    const dir = root();
    const r = await runBin(["ls", "--cwd", "/home/dev/a", "--dir", dir]);
    expect(r.code, r.stderr).toBe(0);
    const shown = shownIds(r.stdout);
    // /home/dev/b's session is not listed, but "01a24370-1c2" would name it as well.
    expect([...shown].sort()).toEqual(["01a24370-1c2d", "01a24370-9", "01a2a000"]);
    await expectResolvable(dir, shown);
  });

  it("search shows ids that resolve, and --json keeps the full ids", async () => {
    const dir = root();
    const r = await runBin(["search", "kumquat", "--dir", dir, "--no-index"]);
    expect(r.code, r.stderr).toBe(0);
    const shown = shownIds(r.stdout);
    expect(shown).toHaveLength(SESSIONS.length);
    await expectResolvable(dir, shown);
    const hits = JSON.parse(
      (await runBin(["search", "kumquat", "--dir", dir, "--no-index", "--json"])).stdout,
    );
    expect(hits.map((h: { sessionId: string }) => h.sessionId).sort()).toEqual(
      SESSIONS.map((s) => s.id).sort(),
    );
    const rows = JSON.parse((await runBin(["ls", "--all", "--dir", dir, "--json"])).stdout);
    expect(rows.map((row: { id: string }) => row.id).sort()).toEqual(
      SESSIONS.map((s) => s.id).sort(),
    );
  });
});
