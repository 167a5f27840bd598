/**
 * Terminal injection through every text command. One session whose every string — header id
 * and cwd, model and provider, thinking level, messages, thinking, tool names, tool output,
 * label, name, custom types, summaries, a usage record, a damaged line — carries ESC, an OSC 52
 * clipboard write, an OSC 0 retitle, BEL, NUL, CR, a newline, a tab, a C1 CSI, a bidi override
 * and DEL. Every command's text, and every error that echoes an argument, reaches stdout and
 * stderr with no raw character a terminal acts on but the output's own newlines (exports keep
 * tabs, which are content); with colours forced, the only escapes are our own SGR codes; and
 * `--json` gives every string back exactly.
 */

import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import { assistantMessage, tempDir, textBlock, userMessage } from "@pi-sessions/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { usageOf } from "./export-fixtures.js";
import { type BinResult, runBin } from "./helpers/run-bin.js";

/** Everything that steers a terminal, in one string. */
const EVIL = "\x1b]52;c;cHduZWQ=\x07\x1b]0;pwned\x07\x1b[2J\x00\rX\n\tY\x9b31m\u202eZ\x7f\x08";
const evil = (tag: string) => `${tag}${EVIL}`;

/** Raw characters a terminal acts on (or reorders text by); `\n` separates our lines. */
const STEERS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the test.
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: our own SGR codes, when colours are on.
const SGR = /\x1b\[\d+m/g;

const CWD = evil("/home/dev/");
let root: string;
let path: string;

beforeAll(() => {
  root = tempDir();
  const dir = join(root, "--hostile--");
  const env = createDeterministicEnv({ seed: 3, stepMs: 3_600_000 });
  const sm = SessionManager.create(CWD, dir, { env });
  sm.appendModelChange(evil("provider"), evil("model"));
  sm.appendThinkingLevelChange(evil("level"));
  const first = sm.appendMessage(userMessage(evil("question"), 1));
  const answer = sm.appendMessage(
    assistantMessage({
      content: [
        { type: "thinking", thinking: evil("thought") },
        textBlock(evil("answer")),
        { type: "toolCall", id: "c1", name: evil("tool"), arguments: { q: EVIL } },
      ],
      usage: usageOf(1),
      provider: evil("provider"),
      model: evil("model"),
      timestamp: 2,
    }),
  );
  sm.appendMessage({
    role: "toolResult",
    toolCallId: "c1",
    toolName: evil("tool"),
    content: [textBlock(evil("result"))],
    isError: false,
    timestamp: 3,
  });
  sm.appendLabelChange(answer, evil("label"));
  sm.appendCustomEntry(evil("custom"), { note: EVIL });
  sm.appendCustomMessageEntry(evil("cmsg"), evil("shown"), true);
  sm.appendUsage(evil("kind"), evil("provider"), evil("model"), usageOf(2), evil("note"));
  sm.appendCompaction(evil("compacted"), answer, 900);
  sm.branchWithSummary(first, evil("summary"));
  sm.appendSessionInfo(evil("name"));
  path = sm.getSessionFile() as string;
  sm.close();
  // The header's id carries it too, and a damaged line (NUL, ESC, BEL raw in the file).
  const lines = readFileSync(path, "utf8").split("\n");
  lines[0] = JSON.stringify({ ...JSON.parse(lines[0] as string), id: evil("id") });
  writeFileSync(path, lines.join("\n"));
  appendFileSync(path, `{"broken\x00\x1b]52;c;aGk=\x07 ${EVIL}\n`);
});

/** No raw control character but newlines (and tabs where `tabs`) in what a run printed. */
function assertClean(what: string, r: BinResult, tabs = false): void {
  for (const [stream, text] of [
    ["stdout", r.stdout],
    ["stderr", r.stderr],
  ] as const) {
    const rest = tabs ? text.replace(/\t/g, "") : text;
    const hit = STEERS.exec(rest.replace(/\n/g, ""));
    expect(
      hit,
      `${what} ${stream}: raw U+${hit?.[0].charCodeAt(0).toString(16)} in ${JSON.stringify(text.slice(0, 400))}`,
    ).toBeNull();
  }
}

describe("every text command shows hostile strings visibly", () => {
  it("ls, search, index, tree, context, usage, check, migrate: nothing raw on stdout or stderr", async () => {
    const commands: string[][] = [
      ["ls"],
      ["ls", "--cwd", CWD.replaceAll("\x00", "")],
      ["ls", "--all"],
      ["ls", "--all", "--no-index"],
      ["search", "answer"],
      ["search", "question", "--no-index"],
      ["index"],
      ["index", "--verify"],
      ["tree", path],
      ["tree", path, "--depth", "2"],
      ["tree", path, "--no-index"],
      ["context", path],
      ["context", path, "--no-index"],
      ["usage", path],
      ["usage", path, "--by", "model"],
      ["usage", path, "--by", "day"],
      ["usage", path, "--by", "session"],
      ["usage", "--all"],
      ["usage", "--all", "--by", "model"],
      ["usage", "--all", "--by", "session"],
      ["check"],
      ["check", path],
      ["migrate", "--dry-run", root],
    ];
    const shown: string[] = [];
    for (const args of commands) {
      const r = await runBin([...args, "--dir", root]);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).not.toBeNull();
      assertClean(args.join(" "), r);
      shown.push(r.stdout);
    }
    // The cwd's newline and tab do not break the `ls --all` table: header, row, cwd, summary.
    expect(shown[2]?.trimEnd().split("\n")).toHaveLength(4);
    // What was there is shown, not dropped: the stand-ins of the escape sequences are in it.
    expect(shown.join("")).toContain("␛]52;c;cHduZWQ=␇");
    expect(shown.join("")).toContain("\\u{202e}");
  });

  it("exports to stdout keep nothing raw but newlines and tabs", async () => {
    for (const format of ["md", "html", "jsonl"]) {
      for (const scope of [[], ["--tree"]]) {
        const args = ["export", path, "--format", format, ...scope];
        const r = await runBin(args);
        expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
        assertClean(args.join(" "), r, true);
      }
    }
    const out = join(tempDir(), evil("out").replaceAll("\x00", "").replaceAll("/", ""));
    const written = await runBin(["export", path, "-o", out]);
    expect(written.code, written.stderr).toBe(0);
    assertClean("export -o", written);
  });

  it("errors that echo an argument show it visibly, in one line", async () => {
    const arg = EVIL.replaceAll("\x00", "");
    const cases = [
      ["tree", arg, "--dir", root],
      ["context", path, "--leaf", arg],
      ["ls", "--dir", `/nonexistent/${arg}`],
      ["check", `./${arg}.jsonl`],
      [`--${arg}`],
      ["usage", path, "--by", arg],
    ];
    for (const args of cases) {
      const r = await runBin(args);
      expect(r.code, args.join(" ")).not.toBe(0);
      assertClean(args.join(" "), r);
      expect(
        r.stderr.split("\n").filter((l) => l !== ""),
        JSON.stringify(r.stderr),
      ).toHaveLength(1);
    }
  });

  it("with colours forced, the only escapes are our own SGR codes", async () => {
    for (const args of [
      ["ls", "--all"],
      ["tree", path],
      ["context", path],
      ["check", path],
      ["usage", path],
    ]) {
      const r = await runBin([...args, "--dir", root], { env: { FORCE_COLOR: "1" } });
      expect(r.stdout, args.join(" ")).toMatch(SGR);
      assertClean(args.join(" "), { ...r, stdout: r.stdout.replace(SGR, "") });
    }
  });
});

describe("--json stays exact", () => {
  it("gives every hostile string back as it is in the file, with nothing raw in the text", async () => {
    const run = async (args: string[]) => {
      const r = await runBin([...args, "--json", "--dir", root]);
      assertClean(args.join(" "), r);
      return JSON.parse(r.stdout);
    };
    const [row] = await run(["ls", "--all", "--no-index"]);
    expect(row).toMatchObject({ cwd: CWD, firstMessage: evil("question"), id: evil("id") });
    // A name is stored as pi normalises it (whitespace runs folded); its escapes are all there.
    expect(row.name).toContain("name\x1b]52;c;cHduZWQ=\x07\x1b]0;pwned\x07\x1b[2J\x00");
    const tree = await run(["tree", path]);
    expect(tree.nodes.map((n: { label?: string }) => n.label)).toContain(evil("label"));
    const context = await run(["context", path, "--no-index", "--leaf", tree.leafId]);
    expect(context.id).toBe(evil("id"));
    const usage = await run(["usage", path]);
    expect(Object.keys(usage.tree.byModel)).toContain(`${evil("provider")}/${evil("model")}`);
    const check = await run(["check", path]);
    const quote = check.files[0].problems.find(
      (p: { quote?: string }) => p.quote !== undefined,
    ).quote;
    expect(JSON.parse(quote)).toContain("\x00\x1b]52;c;aGk=\x07");
  });
});
