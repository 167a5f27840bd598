/**
 * Every deliberate difference between our discovery and R1.6's, one test each, showing what
 * the reference does and what we do instead (SPEC §12). Everything else must match
 * (listing-conformance and discovery tests).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findMostRecentSession, findSessionById } from "../../src/store/discovery.js";
import { listSessions, listSessionsInDir } from "../../src/store/listing.js";
import { defaultSessionDirPath } from "../../src/store/paths.js";
import {
  header,
  type Line,
  loadReferenceDiscovery,
  makeTempDir,
  messageEntry,
  type ReferenceDiscovery,
  removeDir,
  writeLines,
} from "./listing-fixtures.js";

let ref: ReferenceDiscovery;
let agentDir: string;
let work: string;
const savedAgentDir = process.env.PI_CODING_AGENT_DIR;

beforeAll(async () => {
  agentDir = makeTempDir("agent-diff");
  process.env.PI_CODING_AGENT_DIR = agentDir;
  ref = await loadReferenceDiscovery();
  work = makeTempDir("diff");
});

afterAll(() => {
  if (savedAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
  else process.env.PI_CODING_AGENT_DIR = savedAgentDir;
  removeDir(agentDir);
  removeDir(work);
});

let dirCount = 0;

/** A directory holding one session file with these lines; returns both paths. */
function oneFile(lines: Line[]): { dir: string; path: string } {
  const dir = join(work, `d${dirCount++}`);
  return { dir, path: writeLines(dir, "s.jsonl", lines) };
}

/** What each implementation lists (no cwd filter) for a directory. */
async function both(dir: string) {
  return {
    theirs: await ref.SessionManager.listAll(dir),
    ours: await listSessionsInDir(dir, { cache: null }),
  };
}

const user = (content: unknown) => messageEntry("m1", { role: "user", content });

describe("[Fix] W16: a bad message does not hide the session", () => {
  it.each([
    ["null", null],
    ["an object", { text: "x" }],
    ["a number", 5],
  ])("content that is %s counts as empty text", async (_, content) => {
    const { dir, path } = oneFile([header("w16", "/w"), user(content), user("after")]);
    const { theirs, ours } = await both(dir);
    expect(theirs).toEqual([]);
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatchObject({ path, id: "w16", messageCount: 2, firstMessage: "after" });
    expect(ours[0]?.allMessagesText).toBe("after");
    // The message still has a `content` key, so it is activity.
    expect(ours[0]?.modified.toISOString()).toBe("2024-03-02T10:00:00.000Z");
  });

  it("a block that is not an object is ignored", async () => {
    const { dir } = oneFile([header("blk", "/w"), user([null, 3, { type: "text", text: "kept" }])]);
    const { theirs, ours } = await both(dir);
    expect(theirs).toEqual([]);
    expect(ours.map((i) => i.firstMessage)).toEqual(["kept"]);
  });

  it("a message entry without a message object is counted and otherwise ignored", async () => {
    const { dir } = oneFile([
      header("nomsg", "/w"),
      { type: "message", id: "a", parentId: null, timestamp: "2024-03-02T10:00:00.000Z" },
      { type: "message", id: "b", parentId: "a", message: null },
    ]);
    const { theirs, ours } = await both(dir);
    expect(theirs).toEqual([]);
    expect(ours.map((i) => [i.messageCount, i.firstMessage])).toEqual([[2, "(no messages)"]]);
  });

  it("a session name that is not a string clears the name", async () => {
    const { dir } = oneFile([
      header("nm", "/w"),
      { type: "session_info", id: "i1", name: "First" },
      { type: "session_info", id: "i2", name: 42 },
    ]);
    const { theirs, ours } = await both(dir);
    expect(theirs).toEqual([]);
    expect(ours.map((i) => i.name)).toEqual([undefined]);
  });
});

describe("[Fix] SPEC §2.2: the header needs a string id (R1.6's list does not check, E32)", () => {
  it.each([
    ["missing", {}],
    ["a number", { id: 5 }],
  ])("an id that is %s drops the file", async (_, id) => {
    const { dir } = oneFile([
      { type: "session", timestamp: "2024-03-01T10:00:00.000Z", cwd: "/w", ...id },
    ]);
    const { theirs, ours } = await both(dir);
    expect(theirs).toHaveLength(1);
    expect(ours).toEqual([]);
    // findMostRecentSession already agrees: neither takes such a header.
    expect(ref.findMostRecentSession(dir)).toBeNull();
    expect(findMostRecentSession(dir)).toBeNull();
  });
});

describe("[Fix] W6: JSON lines that are not objects are malformed lines, skipped", () => {
  it.each(["42", "[1]", '"text"', "true"])(
    "%s before the header does not hide it",
    async (first) => {
      const { dir, path } = oneFile([first, header("w6", "/w"), user("hi")]);
      const { theirs, ours } = await both(dir);
      expect(theirs).toEqual([]);
      expect(ours.map((i) => i.id)).toEqual(["w6"]);
      expect(ref.findMostRecentSession(dir)).toBeNull();
      expect(findMostRecentSession(dir)).toBe(path);
      expect(ref.SessionManager.findById("/w", "w6", dir)).toBeUndefined();
      expect(findSessionById(dir, "w6", "/w")).toBe(path);
    },
  );

  it("null before the header: both skip it (no difference)", async () => {
    const { dir, path } = oneFile(["null", header("nul", "/w")]);
    const { theirs, ours } = await both(dir);
    expect(theirs.map((i) => i.path)).toEqual([path]);
    expect(ours.map((i) => i.path)).toEqual([path]);
  });
});

describe("SessionInfo.parentSessionPath is a string or undefined", () => {
  it("a parentSession that is not a string is left out (R1.6 passes the raw value)", async () => {
    const { dir } = oneFile([header("ps", "/w", { parentSession: 7 })]);
    const { theirs, ours } = await both(dir);
    expect(theirs[0]?.parentSessionPath).toBe(7);
    expect(ours[0]?.parentSessionPath).toBeUndefined();
  });
});

describe("[Fix] W17: sessions of other working directories are filtered in the default directory", () => {
  const cwd = "/w/a-b";
  let dir: string;
  let mine: string;
  let collider: string;
  let noCwd: string;

  beforeAll(() => {
    dir = defaultSessionDirPath(cwd);
    // `/w/a/b` encodes to the same directory as `/w/a-b`.
    collider = writeLines(dir, "3.jsonl", [header("collider", "/w/a/b"), user("theirs")], {
      mtime: 1_700_000_300,
    });
    noCwd = writeLines(dir, "2.jsonl", [header("old", undefined), user("old")], {
      mtime: 1_700_000_200,
    });
    mine = writeLines(dir, "1.jsonl", [header("mine", cwd), user("mine")], {
      mtime: 1_700_000_100,
    });
  });

  it("list: R1.6 shows the collider; we show our sessions and the one without a cwd", async () => {
    const theirs = await ref.SessionManager.list(cwd);
    expect(theirs.map((i) => i.path).sort()).toEqual([collider, noCwd, mine].sort());
    const ours = await listSessions(dir, { filterCwd: cwd, cache: null });
    expect(ours.map((i) => i.path).sort()).toEqual([noCwd, mine].sort());
  });

  it("continueRecent: R1.6 resumes the collider; findMostRecentSession picks the missing-cwd one", () => {
    expect(ref.SessionManager.continueRecent(cwd).getSessionFile()).toBe(collider);
    expect(findMostRecentSession(dir, cwd)).toBe(noCwd);
    // With R1.6's custom-directory rule a missing cwd does not match.
    expect(findMostRecentSession(dir, cwd, false)).toBe(mine);
  });

  it("findById: R1.6 finds the collider by id; we do not", () => {
    expect(ref.SessionManager.findById(cwd, "collider")).toBe(collider);
    expect(findSessionById(dir, "collider", cwd)).toBeUndefined();
    expect(findSessionById(dir, "old", cwd)).toBe(noCwd);
  });
});

describe("emptyCwdMatches: the missing-cwd rule is the caller's choice", () => {
  it("custom directory: R1.6 drops headers without cwd; we keep them unless told not to", async () => {
    const { dir, path } = oneFile([header("nocwd", undefined), user("x")]);
    expect(await ref.SessionManager.list("/w", dir)).toEqual([]);
    expect((await listSessions(dir, { filterCwd: "/w", cache: null })).map((i) => i.path)).toEqual([
      path,
    ]);
    expect(
      await listSessions(dir, { filterCwd: "/w", emptyCwdMatches: false, cache: null }),
    ).toEqual([]);
  });
});
