/**
 * The real `pi --mode rpc --session <file>` through `pi-sessions pi` with a warm index: the
 * session opens from the layout the index vouches for (its snapshot row appears), and every
 * answer a client reads — state, entries, tree, messages, a prompt's turn — equals pi's own on
 * the same file; then again after pi appended to it (the index catches up the new lines), and
 * with the index's part switched off. Every file opens as columns here
 * (`PI_SESSIONS_COLUMNS_FROM_BYTES=0`), as a giant one does.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openSessionIndex } from "@pi-sessions/index";
import { corpusFile, tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { commonPiArgs, makeSide, type PiSide } from "./pi-sides.js";
import { type RpcRecord, RpcSession } from "./rpc-client.js";

const COLUMNS_FROM_BYTES = { PI_SESSIONS_COLUMNS_FROM_BYTES: "0" };

/** A corpus session (branches, labels) in the side's sessions folder, its cwd the side's. */
function placeSession(side: PiSide): string {
  const dir = join(side.sessionsDir, `--${side.cwd.slice(1).replaceAll("/", "-")}--`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "2026-11-30T03-05-25-873Z_01a22a6a-1870-74e8-b456-77b8915db22e.jsonl");
  const text = readFileSync(corpusFile("ref-1.6-branched.jsonl"), "utf8");
  // pi refuses a session whose working directory does not exist (the corpus's is another machine's).
  writeFileSync(
    file,
    text.replace('"cwd":"/home/dev/project"', JSON.stringify({ cwd: side.cwd }).slice(1, -1)),
  );
  return file;
}

/** Whether the side's index holds a layout snapshot (written by an open it vouched for). */
function snapshots(side: PiSide): number {
  const db = new DatabaseSync(side.indexFile, { readOnly: true });
  try {
    return Number((db.prepare("SELECT count(*) AS n FROM file_columns").get() as { n: number }).n);
  } finally {
    db.close();
  }
}

/** pi's answers on `file`, the side's root written `<root>`, the requests' ids dropped. */
async function answersOn(
  side: PiSide,
  file: string,
  prompt: boolean,
  env: NodeJS.ProcessEnv = {},
): Promise<string[]> {
  const rpc = new RpcSession(side, ["--session", file, ...commonPiArgs()], {
    ...COLUMNS_FROM_BYTES,
    ...env,
  });
  const answers: string[] = [];
  // The root, and the sessions folder named after the cwd under it, differ between the sides.
  const dashed = side.root.slice(1).replaceAll("/", "-");
  const keep = (r: RpcRecord) =>
    answers.push(
      JSON.stringify({ ...r, id: undefined })
        .replaceAll(side.root, "<root>")
        .replaceAll(dashed, "<root>"),
    );
  for (const type of ["get_state", "get_entries", "get_tree", "get_messages"])
    keep(await rpc.send({ type }));
  if (prompt) {
    keep(await rpc.prompt("One more question."));
    keep(await rpc.send({ type: "get_entries" }));
  }
  const end = await rpc.close();
  expect(end.stderr, `${side.kind} stderr`).toBe("");
  expect(end.code).toBe(0);
  return answers;
}

/** Two runs' new entries differ in ids, times and durations: ids numbered by appearance, times 0. */
function numbered(answers: string[]): string[] {
  const ids = new Map<string, string>();
  return answers.map((a) =>
    a
      .replace(/"(id|parentId|entryId|leafId)":"([0-9a-f]{8})"/g, (_, key: string, id: string) => {
        if (!ids.has(id)) ids.set(id, `#${ids.size}`);
        return `"${key}":"${ids.get(id)}"`;
      })
      .replace(/"timestamp":("[^"]*"|\d+)/g, '"timestamp":0')
      .replace(/"durationMs":\d+/g, '"durationMs":0'),
  );
}

describe("pi-sessions pi opening a session from a warm index", () => {
  it("answers what pi alone answers, before and after pi appends, and with the index switched off", async () => {
    const parent = tempDir("pi-launcher-open-index-");
    const [piSide, ours] = [makeSide(parent, "pi"), makeSide(parent, "ours")];
    const [piFile, ourFile] = [placeSession(piSide), placeSession(ours)];
    const index = openSessionIndex({ file: ours.indexFile });
    try {
      await index.sync(ours.sessionsDir);
    } finally {
      index.close();
    }
    expect(snapshots(ours)).toBe(0);

    // The index's part switched off: the checked open, no snapshot read or written.
    const off = await answersOn(ours, ourFile, false, { PI_SESSIONS_OPEN_FROM_INDEX: "0" });
    expect(snapshots(ours)).toBe(0);
    const alone = await answersOn(piSide, piFile, false);
    expect(off).toEqual(alone);

    // Warm: the open is vouched for (its snapshot written), the answers pi's own, a turn too.
    const [first, piFirst] = [
      await answersOn(ours, ourFile, true),
      await answersOn(piSide, piFile, true),
    ];
    expect(snapshots(ours)).toBe(1);
    expect(numbered(first)).toEqual(numbered(piFirst));

    // pi appended a turn: the index catches up the new lines, the answers still pi's own.
    const [again, piAgain] = [
      await answersOn(ours, ourFile, false),
      await answersOn(piSide, piFile, false),
    ];
    expect(numbered(again)).toEqual(numbered(piAgain));
    const caughtUp = openSessionIndex({ file: ours.indexFile });
    try {
      expect((await caughtUp.sync(ours.sessionsDir)).counts.unchanged).toBe(1);
    } finally {
      caughtUp.close();
    }
  }, 180_000);
});
