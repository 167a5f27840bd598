/**
 * Forking and discovery in custom session directories (SPEC §10): `forkFrom`, `list` and
 * `continueRecent`. The default directory (under the agent dir) is only used by the W17 [Fix]
 * scenario (header cwd filter in the default directory), with the agent dir pointed at a temporary
 * directory.
 */
import { existsSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { JsonObject } from "../../api-calls/manager-api.js";
import { equal, equalOrdered, ok, throwsMessage } from "../assert.js";
import { cannotFork, INVALID_ID_MESSAGE } from "../constants.js";
import { assistantEntry, entry, header, jsonl, labelEntry, userEntry } from "../fixtures.js";
import type { Scenario } from "../types.js";
import { fileRecords } from "./files.js";

/** Writes a session file with the given records and modification time (seconds). */
export function writeSession(
  dir: string,
  name: string,
  records: unknown[],
  mtime?: number,
): string {
  const file = join(dir, name);
  writeFileSync(file, jsonl(records));
  if (mtime !== undefined) utimesSync(file, mtime, mtime);
  return file;
}

export const discoveryScenarios: Scenario[] = [
  {
    id: "discovery/fork-from",
    title:
      "forkFrom: the whole tree copied at once under a new header; custom id checked; missing source",
    spec: "§10.1",
    run(ctx) {
      const src = ctx.tempDir();
      const records = [
        header(),
        userEntry("a", null, 1),
        labelEntry("l", "a", 2, "a", "x"),
        entry("hologram", "h", null, 3, { beam: 1 }),
      ];
      const source = writeSession(src, "source.jsonl", records);
      const dir = ctx.tempDir();
      const sm = ctx.module.SessionManager.forkFrom(source, "/target/cwd", dir, {
        id: "fork-1",
        parentSession: "/ignored",
      });
      const file = sm.getSessionFile() as string;
      const h = sm.getHeader() as JsonObject;
      equalOrdered(
        { ...h, timestamp: "<ts>" },
        {
          type: "session",
          version: 3,
          id: "fork-1",
          timestamp: "<ts>",
          cwd: resolve("/target/cwd"),
          parentSession: source,
        },
        "header",
      );
      equal(fileRecords(file), [h, ...records.slice(1)], "file written at once with every entry");
      equal(
        [sm.getLeafId(), sm.getCwd(), sm.getLabel("a")],
        ["h", resolve("/target/cwd"), "x"],
        "opened on the fork",
      );
      ctx.close(sm);
      throwsMessage(
        () => ctx.module.SessionManager.forkFrom(source, "/t", dir, { id: "-bad" }),
        INVALID_ID_MESSAGE,
        "invalid id",
      );
      const missing = join(src, "missing.jsonl");
      throwsMessage(
        () => ctx.module.SessionManager.forkFrom(missing, "/t", dir),
        cannotFork(missing),
        "missing source",
      );
    },
  },
  {
    id: "discovery/list",
    title:
      "list(cwd, dir): SessionInfo fields, newest first, other cwds filtered in a custom directory",
    spec: "§10.5",
    async run(ctx) {
      const dir = ctx.tempDir();
      const cwd = "/work/project";
      const rich = writeSession(
        dir,
        "b.jsonl",
        [
          header({ id: "rich", cwd }),
          entry("message", "t", null, 1, {
            message: {
              role: "toolResult",
              toolCallId: "c",
              toolName: "x",
              content: [],
              isError: false,
              timestamp: 1,
            },
          }),
          userEntry("u", "t", 2, "  first question "),
          assistantEntry("a", "u", 3, "the answer"),
          entry("session_info", "n", "a", 4, { name: "  Named  " }),
        ],
        1_700_000_000,
      );
      writeSession(
        dir,
        "a.jsonl",
        [header({ id: "bare", cwd }), entry("custom", "c", null, 5)],
        1_600_000_000,
      );
      writeSession(dir, "c.jsonl", [
        header({ id: "other", cwd: "/elsewhere" }),
        userEntry("u", null, 1),
      ]);
      writeFileSync(join(dir, "not-a-session.jsonl"), "garbage\n");
      const infos = (await ctx.module.SessionManager.list(cwd, dir)) as JsonObject[];
      equal(
        infos.map((i) => i.id),
        ["rich", "bare"],
        "sessions of this cwd, newest first",
      );
      const [info, bare] = infos as [JsonObject, JsonObject];
      equal(
        [
          info.path,
          info.cwd,
          info.name,
          info.messageCount,
          info.firstMessage,
          info.allMessagesText,
        ],
        [rich, cwd, "Named", 3, "  first question ", "  first question  the answer"],
        "SessionInfo fields",
      );
      ok(
        info.created instanceof Date && info.modified instanceof Date,
        "created and modified are Dates",
      );
      equal(
        [bare.firstMessage, bare.messageCount, bare.name ?? "none"],
        ["(no messages)", 0, "none"],
        "no messages",
      );
    },
  },
  {
    id: "discovery/continue-recent",
    title:
      "continueRecent(cwd, dir): the most recent session of cwd, opened with the given cwd; else a new one",
    spec: "§10.3",
    run(ctx) {
      const dir = ctx.tempDir();
      const cwd = "/work/project";
      writeSession(
        dir,
        "old.jsonl",
        [header({ id: "old", cwd }), userEntry("a", null, 1)],
        1_600_000_000,
      );
      const recent = writeSession(
        dir,
        "new.jsonl",
        [header({ id: "new", cwd }), userEntry("b", null, 1)],
        1_700_000_000,
      );
      writeSession(
        dir,
        "other.jsonl",
        [header({ id: "other", cwd: "/elsewhere" }), userEntry("c", null, 1)],
        1_800_000_000,
      );
      const sm = ctx.module.SessionManager.continueRecent(cwd, dir);
      equal([sm.getSessionFile(), sm.getSessionId(), sm.getCwd()], [recent, "new", cwd], "resumed");
      ctx.close(sm);
      const emptyDir = ctx.tempDir();
      const fresh = ctx.module.SessionManager.continueRecent(cwd, emptyDir);
      equal(
        [fresh.getEntries().length, existsSync(fresh.getSessionFile() as string)],
        [0, false],
        "a new, pending session",
      );
      ctx.close(fresh);
    },
  },
];
