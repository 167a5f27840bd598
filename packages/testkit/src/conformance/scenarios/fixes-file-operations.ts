/**
 * [Fix] rows of SPEC §12 about the manager's own file operations, each observed through files
 * in a temporary directory: W12 (a legacy fork source), W13 (reads write nothing), W16 (bad
 * content in listings), W17 (the cwd filter), W19 (the leaf after a failed
 * branchWithSummary), W22 (file modes), W24 (parentSession). Files changed outside the
 * manager are in `fixes-damaged-files.ts`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { JsonObject } from "../../api-calls/manager-api.js";
import { equal, ok, throws } from "../assert.js";
import { flushed, header, jsonl, messageOf, userEntry, userMessage } from "../fixtures.js";
import type { Scenario } from "../types.js";
import { writeSession } from "./discovery.js";
import { legacyV1 } from "./format.js";

const posixOnly = () => (process.platform === "win32" ? "POSIX permissions and paths" : undefined);

/** [Fix] rows about the manager's own file operations, in row order. */
export const fileOperationFixScenarios: Scenario[] = [
  {
    id: "fix/W12-fork-legacy-source",
    title:
      "forkFrom migrates a v1 source: ids, one chain, custom role, a leaf and the full context",
    spec: "§10.1",
    fix: "W12",
    run(ctx) {
      const source = writeSession(ctx.tempDir(), "v1.jsonl", legacyV1());
      const before = readFileSync(source, "utf8");
      const sm = ctx.module.SessionManager.forkFrom(source, "/t", ctx.tempDir());
      const es = sm.getEntries();
      ok(
        es.every(
          (e, i) => typeof e.id === "string" && e.parentId === (i === 0 ? null : es[i - 1]?.id),
        ),
        "one linked chain",
      );
      equal(messageOf(es[3]).role, "custom", "hookMessage renamed");
      equal(
        [sm.getLeafId(), sm.buildSessionContext().messages.length],
        [es[3]?.id, 3],
        "leaf and context (summary, kept entry, custom)",
      );
      equal(readFileSync(source, "utf8"), before, "source untouched");
      ctx.close(sm);
    },
  },
  {
    id: "fix/W13-open-writes-nothing",
    title: "open of a file with a torn last line writes nothing; the next append starts a new line",
    spec: "§6.5",
    fix: "W13",
    run(ctx) {
      const file = join(ctx.tempDir(), "torn.jsonl");
      const text = `${jsonl([header(), userEntry("a", null, 1)])}{"type":"mess`;
      writeFileSync(file, text);
      const sm = ctx.module.SessionManager.open(file);
      equal(readFileSync(file, "utf8"), text, "file unchanged by open");
      const id = sm.appendMessage(userMessage("next"));
      ctx.close(sm);
      const reopened = ctx.module.SessionManager.open(file);
      ok(reopened.getEntry(id), "the appended entry is intact after a reload");
      ctx.close(reopened);
    },
  },
  {
    id: "fix/W16-list-null-content",
    title: "list() keeps a session whose user message has null content",
    spec: "§10.5",
    fix: "W16",
    async run(ctx) {
      const dir = ctx.tempDir();
      const bad = {
        ...userEntry("a", null, 1),
        message: { role: "user", content: null, timestamp: 1 },
      };
      writeSession(dir, "s.jsonl", [header(), bad, userEntry("b", "a", 2, "text")]);
      const infos = (await ctx.module.SessionManager.list("/work/project", dir)) as JsonObject[];
      equal(
        infos.map((i) => [i.id, i.firstMessage]),
        [["file-session", "text"]],
        "listed",
      );
    },
  },
  {
    id: "fix/W17-default-dir-cwd-filter",
    title:
      "list() in the default directory leaves out sessions of another cwd with the same encoding",
    spec: "§10.3, §10.5",
    fix: "W17",
    skip: posixOnly,
    async run(ctx) {
      const agentDir = ctx.tempDir();
      const dir = join(agentDir, "sessions", "--w-a-b--");
      mkdirSync(dir, { recursive: true });
      writeSession(dir, "mine.jsonl", [
        header({ id: "mine", cwd: "/w/a-b" }),
        userEntry("a", null, 1),
      ]);
      writeSession(dir, "theirs.jsonl", [
        header({ id: "theirs", cwd: "/w/a/b" }),
        userEntry("b", null, 1),
      ]);
      const infos = await ctx.withAgentDir(agentDir, () =>
        ctx.module.SessionManager.list("/w/a-b"),
      );
      equal(
        infos.map((i) => i.id),
        ["mine"],
        "only the sessions of /w/a-b",
      );
    },
  },
  {
    id: "fix/W19-failed-branch-summary",
    title: "a failed branchWithSummary restores the leaf it had before the call",
    spec: "§5.1, §7.4",
    fix: "W19",
    run(ctx) {
      const { sm, file, first } = flushed(ctx);
      const second = sm.appendMessage(userMessage("second"));
      rmSync(file);
      mkdirSync(file); // no implementation can append to a directory
      ok(
        throws(() => sm.branchWithSummary(first, "summary")),
        "the append fails",
      );
      equal([sm.getLeafId(), sm.getEntries().length], [second, 2], "leaf and entries as before");
      ctx.close(sm);
    },
  },
  {
    id: "fix/W22-private-files",
    title: "session files are created 0600 and session directories 0700",
    spec: "§1.5",
    fix: "W22",
    skip: posixOnly,
    run(ctx) {
      const dir = join(ctx.tempDir(), "sessions");
      const sm = ctx.module.SessionManager.create("/work/project", dir);
      sm.appendMessage(userMessage("secret"));
      const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
      equal([mode(sm.getSessionFile() as string), mode(dir)], ["600", "700"], "modes");
      ctx.close(sm);
    },
  },
  {
    id: "fix/W24-branched-parent-exists",
    title:
      "createBranchedSession of a never-written session records no parentSession that does not exist",
    spec: "§9",
    fix: "W24",
    run(ctx) {
      const sm = ctx.module.SessionManager.create("/work/project", ctx.tempDir());
      const m = sm.appendModelChange("p", "m");
      sm.createBranchedSession(m);
      const parent = sm.getHeader()?.parentSession;
      ok(
        parent === undefined || existsSync(resolve(String(parent))),
        `parentSession ${String(parent)} exists or is left out`,
      );
      ctx.close(sm);
    },
  },
];
