/**
 * [Fix] rows of SPEC §12 observable through files in a temporary directory: W1 (torn tail), W4
 * (unparseable lines kept), W5 (reported), W6 (non-objects), W7 (two writers), W8 (deleted file),
 * W12 (legacy fork source), W13 (reads write nothing), W16 (bad content in listings), W17 (cwd
 * filter), W19 (leaf after a failed branchWithSummary), W22 (file modes), W24 (parentSession). Not
 * covered, because they cannot be observed through the API without fault injection or timing: W2
 * (partial write after ENOSPC), W3 (atomicity of rewrites), W9 (fsync), W21 (costs), W23 (a MAY).
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import type { JsonObject, SessionManagerLike } from "../../api-calls/manager-api.js";
import { equal, idsOf, ok } from "../assert.js";
import { header, jsonl, messageOf, userEntry, userMessage } from "../fixtures.js";
import type { Scenario, ScenarioContext } from "../types.js";
import { writeSession } from "./discovery.js";
import { fileRecords } from "./files.js";
import { legacyV1 } from "./format.js";

/** A persisted session that has been written (one user message), and its file. */
function flushed(ctx: ScenarioContext): { sm: SessionManagerLike; file: string; first: string } {
  const sm = ctx.module.SessionManager.create("/work/project", ctx.tempDir());
  const first = sm.appendMessage(userMessage("first"));
  return { sm, file: sm.getSessionFile() as string, first };
}

/** Runs `f`; true when it threw. */
function throws(f: () => unknown): boolean {
  try {
    f();
    return false;
  } catch {
    return true;
  }
}

const posixOnly = () => (process.platform === "win32" ? "POSIX permissions and paths" : undefined);

export const fileFixScenarios: Scenario[] = [
  {
    id: "fix/W1-foreign-torn-tail",
    title:
      "an append after a foreign writer left a partial line is refused or lands on its own line",
    spec: "§6.3",
    fix: "W1",
    run(ctx) {
      const { sm, file } = flushed(ctx);
      appendFileSync(file, '{"type":"message","id":"torn');
      let id: string | undefined;
      const failed = throws(() => {
        id = sm.appendMessage(userMessage("after the tear"));
      });
      ctx.close(sm);
      const reopened = ctx.module.SessionManager.open(file);
      if (failed) equal(reopened.getEntries().length, 1, "refused: nothing was written");
      else ok(reopened.getEntry(id as string), "acknowledged entry survives a reload");
      ctx.close(reopened);
    },
  },
  {
    id: "fix/W4-rewrite-keeps-malformed",
    title: "the migration rewrite keeps malformed lines word for word, in place",
    spec: "§2.4",
    fix: "W4",
    run(ctx) {
      const [h, ...rest] = legacyV1();
      const file = join(ctx.tempDir(), "v1.jsonl");
      writeFileSync(file, jsonl([h, rest[0], "THIS LINE IS MALFORMED", ...rest.slice(1)]));
      ctx.close(ctx.module.SessionManager.open(file));
      const lines = readFileSync(file, "utf8").split("\n");
      equal(lines[2], "THIS LINE IS MALFORMED", "third line after the rewrite");
      equal((JSON.parse(lines[0] as string) as JsonObject).version, 3, "migrated");
    },
  },
  {
    id: "fix/W5-load-diagnostics",
    title: "malformed lines are reported by getLoadDiagnostics() with their line number",
    spec: "§2.1",
    fix: "W5",
    run(ctx) {
      const file = join(ctx.tempDir(), "s.jsonl");
      writeFileSync(
        file,
        jsonl([header(), userEntry("a", null, 1), "{broken", userEntry("b", "a", 2)]),
      );
      const sm = ctx.module.SessionManager.open(file) as SessionManagerLike & {
        getLoadDiagnostics?: () => unknown[];
      };
      ok(typeof sm.getLoadDiagnostics === "function", "the manager has getLoadDiagnostics()");
      const diagnostics = sm.getLoadDiagnostics?.() ?? [];
      ok(
        diagnostics.some((d) => (d as { line?: number }).line === 3),
        `a diagnostic for line 3 (${JSON.stringify(diagnostics)})`,
      );
      ctx.close(sm);
    },
  },
  {
    id: "fix/W6-scalar-last-line",
    title:
      "a scalar JSON line is malformed: leaf, context and the next parentId come from the last entry",
    spec: "§2.1",
    fix: "W6",
    run(ctx) {
      const file = join(ctx.tempDir(), "s.jsonl");
      writeFileSync(file, jsonl([header(), userEntry("a", null, 1), "42"]));
      const sm = ctx.module.SessionManager.open(file);
      equal(
        [sm.getLeafId(), sm.buildSessionContext().messages.length],
        ["a", 1],
        "leaf and context",
      );
      const id = sm.appendMessage(userMessage("next"));
      equal(sm.getEntry(id)?.parentId, "a", "parent of the next append");
      ctx.close(sm);
    },
  },
  {
    id: "fix/W7-two-writers",
    title: "a second manager on the same file never forks it silently",
    spec: "§6.3",
    fix: "W7",
    run(ctx) {
      const { sm: a, file } = flushed(ctx);
      const b = ctx.module.SessionManager.open(file);
      const fromA = a.appendMessage(userMessage("from A"));
      let fromB: string | undefined;
      const refused = throws(() => {
        fromB = b.appendMessage(userMessage("from B"));
      });
      ctx.close(a);
      ctx.close(b);
      const reopened = ctx.module.SessionManager.open(file);
      if (!refused)
        equal(reopened.getEntry(fromB as string)?.parentId, fromA, "B continued after A's entry");
      else equal(idsOf(reopened.getEntries()).length, 2, "B was refused and wrote nothing");
      ctx.close(reopened);
    },
  },
  {
    id: "fix/W8-deleted-file",
    title: "after the file is deleted, an append does not recreate it without its header",
    spec: "§1.6",
    fix: "W8",
    run(ctx) {
      const { sm, file } = flushed(ctx);
      rmSync(file);
      throws(() => sm.appendMessage(userMessage("after delete")));
      ctx.close(sm);
      if (existsSync(file))
        equal(
          (fileRecords(file)[0] as JsonObject).type,
          "session",
          "a recreated file starts with a header",
        );
    },
  },
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
