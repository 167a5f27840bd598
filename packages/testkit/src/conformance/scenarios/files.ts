/**
 * File-backed sessions in temporary directories (SPEC §1.3, §6, §9): when the file is first
 * written, one line per append, round trips through `open`, the outcomes of `open`, and the
 * migration rewrite.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { JsonObject, SessionManagerLike, TreeNodeLike } from "../../api-calls/manager-api.js";
import { equal, equalOrdered, ok, throwsMessage } from "../assert.js";
import { notASession } from "../constants.js";
import { assistantMessage, header, jsonl, USAGE, userEntry, userMessage } from "../fixtures.js";
import type { Scenario, ScenarioContext } from "../types.js";
import { legacyV1 } from "./format.js";

/** The JSON records of a file's non-blank lines (throws on a malformed line). */
export const fileRecords = (path: string): unknown[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));

/** Everything a reopen must reproduce: entries (key order), leaf, tree, labels, name, context. */
export function sessionView(sm: SessionManagerLike): unknown {
  const tree: unknown[] = [];
  const stack = [...sm.getTree()];
  for (let n = stack.pop(); n; n = stack.pop()) {
    tree.push([
      n.entry.id,
      n.label ?? null,
      n.labelTimestamp ?? null,
      n.children.map((c) => c.entry.id),
    ]);
    stack.push(...(n.children as TreeNodeLike[]));
  }
  return {
    header: sm.getHeader(),
    entries: JSON.stringify(sm.getEntries()),
    leaf: sm.getLeafId(),
    tree,
    labels: sm.getEntries().map((e) => sm.getLabel(e.id) ?? null),
    name: sm.getSessionName() ?? null,
    context: sm.buildSessionContext(),
  };
}

/** A persisted manager in a fresh directory. */
const created = (ctx: ScenarioContext) =>
  ctx.module.SessionManager.create("/work/project", ctx.tempDir());

export const fileScenarios: Scenario[] = [
  {
    id: "files/first-write",
    title:
      "no file until a user or assistant message; then header and every entry; one line per append",
    spec: "§1.3, §6.2, §6.3",
    run(ctx) {
      const sm = created(ctx);
      const file = sm.getSessionFile() as string;
      const h = sm.getHeader() as JsonObject;
      equal(
        basename(file),
        `${String(h.timestamp).replace(/[:.]/g, "-")}_${h.id}.jsonl`,
        "file name",
      );
      sm.appendModelChange("p", "m");
      sm.appendThinkingLevelChange("high");
      sm.appendCustomEntry("ext", { n: 1 });
      sm.appendSessionInfo("name");
      sm.appendCustomMessageEntry("ext", "hidden", false);
      sm.appendMessage({
        role: "toolResult",
        toolCallId: "c",
        toolName: "t",
        content: [],
        isError: false,
        timestamp: 1,
      });
      equal(
        [sm.isPersisted(), existsSync(file)],
        [true, false],
        "pending: persisted flag set, no file",
      );
      sm.appendMessage(userMessage("hello"));
      equalOrdered(
        fileRecords(file),
        [sm.getHeader(), ...sm.getEntries()],
        "file = header + entries",
      );
      const size = readFileSync(file, "utf8").split("\n").length;
      sm.appendMessage(assistantMessage("hi"));
      equal(readFileSync(file, "utf8").split("\n").length, size + 1, "one more line");
      ok(readFileSync(file, "utf8").endsWith("\n"), "lines end with \\n");
      ctx.close(sm);
    },
  },
  {
    id: "files/round-trip",
    title: "write → open gives equal entries, leaf, tree, labels, name and context",
    spec: "§6.5, §7.1",
    run(ctx) {
      const sm = created(ctx);
      const q = sm.appendMessage(userMessage("q"));
      sm.appendMessage(assistantMessage("a"));
      sm.appendLabelChange(q, "start");
      sm.appendSessionInfo("My session");
      sm.appendCompaction("sum", q, 10, { readFiles: [] }, undefined, USAGE);
      sm.branch(q);
      sm.appendMessage(userMessage("other"));
      sm.appendCustomEntry("ext", { deep: [1, { x: "é" }] });
      const before = sessionView(sm);
      const file = sm.getSessionFile() as string;
      ctx.close(sm);
      const reopened = ctx.module.SessionManager.open(file);
      equal(sessionView(reopened), before, "reopened session");
      equal(
        [reopened.getSessionFile(), reopened.getCwd()],
        [file, "/work/project"],
        "file and cwd from the header",
      );
      ctx.close(reopened);
    },
  },
  {
    id: "files/open-missing-and-empty",
    title: "open: a missing path starts a new session there; a 0-byte file gets a header at once",
    spec: "§6.4, §6.5",
    run(ctx) {
      const dir = ctx.tempDir();
      const missing = join(dir, "new.jsonl");
      const sm = ctx.module.SessionManager.open(missing);
      equal(
        [sm.getSessionFile(), sm.getEntries().length, existsSync(missing)],
        [missing, 0, false],
        "missing path",
      );
      sm.appendMessage(userMessage("x"));
      equal(fileRecords(missing).length, 2, "written on the first message");
      ctx.close(sm);
      const empty = join(dir, "empty.jsonl");
      writeFileSync(empty, "");
      const e = ctx.module.SessionManager.open(empty);
      equalOrdered(fileRecords(empty), [e.getHeader()], "header written");
      e.appendCustomEntry("ext");
      equal(fileRecords(empty).length, 2, "flushed: a custom entry is written at once");
      ctx.close(e);
    },
  },
  {
    id: "files/open-invalid",
    title:
      "open: garbage, \\n, headerless, header not first, header without id throw and leave the file",
    spec: "§5.5, §6.5",
    run(ctx) {
      const dir = ctx.tempDir();
      const bad = [
        "\n",
        "garbage\n",
        jsonl([userEntry("a", null, 1)]),
        jsonl([userEntry("a", null, 1), header()]),
        jsonl([{ type: "session", timestamp: "x", cwd: "/w" }]),
      ];
      bad.forEach((text, i) => {
        const file = join(dir, `bad-${i}.jsonl`);
        writeFileSync(file, text);
        throwsMessage(() => ctx.module.SessionManager.open(file), notASession(file), `case ${i}`);
        equal(readFileSync(file, "utf8"), text, `case ${i} unchanged`);
      });
    },
  },
  {
    id: "files/open-tolerant",
    title: "open: garbage before the header, a malformed middle line, CRLF and version 9 all load",
    spec: "§2.1, §2.3, §6.5",
    run(ctx) {
      const dir = ctx.tempDir();
      const a = userEntry("a", null, 1);
      const b = userEntry("b", "a", 2);
      const cases: [string, string, string[]][] = [
        ["garbage-first", `garbage\n${jsonl([header(), a])}`, ["a"]],
        [
          "middle",
          `${JSON.stringify(header())}\n${JSON.stringify(a)}\n{bad\n${JSON.stringify(b)}\n`,
          ["a", "b"],
        ],
        ["crlf", jsonl([header(), a, b]).replace(/\n/g, "\r\n"), ["a", "b"]],
        ["v9", jsonl([header({ version: 9 }), a]), ["a"]],
      ];
      for (const [name, text, ids] of cases) {
        const file = join(dir, `${name}.jsonl`);
        writeFileSync(file, text);
        const sm = ctx.module.SessionManager.open(file);
        equal(
          sm.getEntries().map((e) => e.id),
          ids,
          `${name}: entries`,
        );
        equal(readFileSync(file, "utf8"), text, `${name}: file unchanged by open`);
        ctx.close(sm);
      }
    },
  },
  {
    id: "files/open-migrates",
    title: "open of a v1 file migrates it and rewrites the file as v3",
    spec: "§2.4",
    run(ctx) {
      const file = join(ctx.tempDir(), "v1.jsonl");
      writeFileSync(file, jsonl(legacyV1()));
      const sm = ctx.module.SessionManager.open(file);
      const records = fileRecords(file) as JsonObject[];
      equal((records[0] as JsonObject).version, 3, "header version on disk");
      equalOrdered(records.slice(1), sm.getEntries(), "entries on disk = in memory");
      ok(
        records.slice(1).every((r) => typeof r.id === "string"),
        "ids on disk",
      );
      ctx.close(sm);
    },
  },
  {
    id: "files/branched-session",
    title:
      "createBranchedSession: a new file written at once with parentSession, the old one untouched",
    spec: "§9",
    run(ctx) {
      const sm = created(ctx);
      const q = sm.appendMessage(userMessage("q"));
      sm.appendMessage(assistantMessage("a"));
      const old = sm.getSessionFile() as string;
      const oldText = readFileSync(old, "utf8");
      const path = sm.createBranchedSession(q) as string;
      equal(
        [path, dirname(path), existsSync(path)],
        [sm.getSessionFile(), dirname(old), true],
        "new file",
      );
      equal((sm.getHeader() as JsonObject).parentSession, old, "parentSession");
      equalOrdered(fileRecords(path), [sm.getHeader(), ...sm.getEntries()], "file content");
      equal(readFileSync(old, "utf8"), oldText, "old file untouched");
      ctx.close(sm);
    },
  },
];
