/**
 * `pi-sessions export` through the real bin: jsonl that core reopens with the same context,
 * Markdown and HTML transcripts of a branch or the whole tree, escaping of hostile content
 * (property test), damaged input, and the exit codes.
 */
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager, type SessionTreeNode } from "@pi-sessions/core";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import {
  CORPUS,
  copyCorpus,
  type TempRoot,
  tempRoot,
  writeDemoSession,
} from "./export-fixtures.js";
import { runBin } from "./helpers/run-bin.js";

/** Runs of the hostile-text HTML property (each spawns the bin once). */
const HOSTILE_PARAMS = fcOptions(4);

let tmp: TempRoot;
beforeEach(() => {
  tmp = tempRoot();
});

/** Opens a file with core on a private copy (opening may migrate, never the file under test). */
function reopen(path: string, name = "reopened.jsonl"): SessionManager {
  const copy = join(tmp.scratch, name);
  copyFileSync(path, copy);
  return SessionManager.open(copy);
}

/** The HTML escaping the page must apply, written independently of the CLI's. */
const escaped = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** Every element the exporter writes; anything else in the page came from the data. */
const OUR_TAGS = new Set(
  "html head meta title style body main header h1 dl dt dd section h2 span a code article div time pre details summary b aside ul li p".split(
    " ",
  ),
);

describe("export --format jsonl", () => {
  it("writes a branch as a branched session that core reopens with the same context and labels", async () => {
    const source = copyCorpus(tmp.project, CORPUS.branched);
    const out = join(tmp.scratch, "branch.jsonl");
    const r = await runBin(["export", source, "--format", "jsonl", "-o", out]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^wrote \d+ entries \(branch to \w+\) as jsonl to /);

    const original = reopen(source, "source.jsonl");
    const copy = reopen(out);
    expect(copy.getLoadDiagnostics()).toEqual([]);
    const header = copy.getHeader();
    expect(header?.parentSession).toBe(source);
    expect(header?.id).not.toBe(original.getHeader()?.id);
    expect(header?.cwd).toBe(original.getHeader()?.cwd);
    expect(copy.buildSessionContext()).toEqual(original.buildSessionContext());
    const path = original.getBranch();
    const kept = path.filter((e) => e.type !== "label").map((e) => e.id);
    expect(
      copy
        .getEntries()
        .map((e) => e.id)
        .slice(0, kept.length),
    ).toEqual(kept);
    for (const id of kept) expect(copy.getLabel(id)).toBe(original.getLabel(id));
    // Entries off the branch stay behind.
    expect(copy.getEntryCount()).toBeLessThan(original.getEntryCount());
  });

  it("--tree writes every entry, unchanged, and the same tree", async () => {
    const demo = writeDemoSession(tmp.project);
    const r = await runBin(["export", demo.path, "--tree", "--format", "jsonl"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    const header = JSON.parse(lines[0] ?? "{}") as Record<string, unknown>;
    expect(Object.keys(header)).toEqual([
      "type",
      "version",
      "id",
      "timestamp",
      "cwd",
      "parentSession",
    ]);
    const sourceLines = readFileSync(demo.path, "utf8").trimEnd().split("\n");
    expect(lines.slice(1)).toEqual(sourceLines.slice(1));
    const file = join(tmp.scratch, "tree.jsonl");
    writeFileSync(file, r.stdout);
    const copy = reopen(file);
    const original = reopen(demo.path, "source.jsonl");
    expect(copy.getEntries()).toEqual(original.getEntries());
    const shape = (nodes: SessionTreeNode[]): unknown =>
      nodes.map((n) => [n.entry.id, n.label, shape(n.children)]);
    expect(shape(copy.getTree())).toEqual(shape(original.getTree()));
  });

  it("exports a v1 corpus file (migrated in memory) without touching it, and core reopens the result", async () => {
    const source = copyCorpus(tmp.project, CORPUS.beforeCompaction);
    const before = readFileSync(source);
    const out = join(tmp.scratch, "v1.jsonl");
    const r = await runBin(["export", source, "--format", "jsonl", "-o", out]);
    expect(r.code).toBe(0);
    expect(readFileSync(source).equals(before)).toBe(true);
    const copy = reopen(out);
    expect(copy.getLoadDiagnostics()).toEqual([]);
    const original = reopen(source, "v1-source.jsonl");
    expect(copy.buildSessionContext().messages).toEqual(original.buildSessionContext().messages);
  });
});

describe("export --format md", () => {
  it("renders the current branch by default and every branch with --tree", async () => {
    const demo = writeDemoSession(tmp.project);
    const branch = await runBin(["export", demo.path, "--dir", tmp.root]);
    expect(branch.code).toBe(0);
    expect(branch.stdout).toMatch(/^# Docs session\n/);
    expect(branch.stdout).toContain("Instead, document the modules.");
    expect(branch.stdout).toContain("Docs written; plan agreed.");
    expect(branch.stdout).toContain("Abandoned: the streaming refactor.");
    expect(branch.stdout).not.toContain("Plan: stream it.");
    expect(branch.stdout).toContain("1 other branch continues from here");

    const tree = await runBin(["export", demo.path, "--tree", "--format", "md"]);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toContain("Plan: stream it.");
    expect(tree.stdout).toContain("Instead, document the modules.");

    // A unique prefix of the id names the leaf, as for `tree` and `context`.
    const other = await runBin(["export", demo.path, "--leaf", demo.abandonedLeaf.slice(0, 6)]);
    expect(other.code).toBe(0);
    expect(other.stdout).toContain("Plan: stream it.");
    expect(other.stdout).not.toContain("Instead, document the modules.");
  });

  it("--json wraps the transcript; -o writes it and reports the file", async () => {
    const demo = writeDemoSession(tmp.project);
    const plain = await runBin(["export", demo.path]);
    const json = await runBin(["export", demo.path, "--json"]);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ format: "md", scope: "branch", session: demo.path });
    expect(report.content).toBe(plain.stdout);
    const out = join(tmp.scratch, "t.md");
    const written = await runBin(["export", demo.path, "-o", out, "--json"]);
    expect(JSON.parse(written.stdout)).toMatchObject({ output: out, format: "md" });
    expect(readFileSync(out, "utf8")).toBe(plain.stdout);
  });
});

describe("export --format html", () => {
  it("shows one branch with fork markers, or every branch with --tree", async () => {
    const demo = writeDemoSession(tmp.project);
    const branch = await runBin(["export", demo.path, "--format", "html"]);
    expect(branch.code).toBe(0);
    expect(branch.stdout).toMatch(/^<!DOCTYPE html>/);
    expect(branch.stdout).toContain('class="entry t-compaction"');
    expect(branch.stdout).toContain('class="fork"');
    expect(branch.stdout).not.toContain("Plan: stream it.");
    expect(branch.stdout).not.toMatch(/<script|<link|src="http/i);
    const tree = await runBin(["export", demo.path, "--format", "html", "--tree"]);
    expect(tree.stdout).toContain('id="branch-2"');
    expect(tree.stdout).toContain("Plan: stream it.");
  });

  it(`escapes hostile text everywhere it appears (property, numRuns ${HOSTILE_PARAMS.numRuns})`, async () => {
    const hostile = fc.oneof(
      fc.constantFrom(
        "<script>alert(1)</script>",
        '"><img src=x onerror=alert(1)>',
        "</pre></details></article><script>",
        "&lt;already escaped&gt; & 'quotes'",
        "<style>body{display:none}</style>",
      ),
      fc.string({
        unit: fc.constantFrom("<", ">", "&", '"', "'", "/", "a", "s", " ", "\n", "é", "😀"),
      }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { minLength: 16, maxLength: 16 }), async (texts) => {
        const demo = writeDemoSession(tmp.project, { texts, seed: ++run });
        const r = await runBin(["export", demo.path, "--format", "html", "--tree"]);
        expect(r.code).toBe(0);
        const tags = [...r.stdout.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) =>
          m[1]?.toLowerCase(),
        );
        expect(tags.filter((t) => !OUR_TAGS.has(t ?? ""))).toEqual([]);
        expect(r.stdout.match(/<style>/g)).toHaveLength(1);
        // Message texts appear verbatim, escaped (user 0 and 3, assistant 1 and 5).
        for (const i of [0, 1, 3, 5]) expect(r.stdout).toContain(escaped(texts[i] ?? ""));
      }),
      HOSTILE_PARAMS,
    );
  });

  it("exports a damaged session: intact entries shown, problems noted on stderr", async () => {
    const demo = writeDemoSession(tmp.project);
    appendFileSync(demo.path, '{"type":"message","id":"torn","parentId":');
    const lines = readFileSync(demo.path, "utf8").split("\n");
    lines.splice(3, 0, "garbage {");
    writeFileSync(demo.path, lines.join("\n"));
    const r = await runBin(["export", demo.path, "--format", "html", "--tree"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^note: .*2 problem\(s\)/);
    expect(r.stdout).toContain("Thanks.");
    expect(r.stdout).toContain("Plan: stream it.");
  });
  it("keeps every entry of a structurally damaged tree (dangling parent, parent cycle)", async () => {
    const file = join(tmp.project, "damaged.jsonl");
    const entry = (id: string, parentId: string | null, text: string) =>
      JSON.stringify({
        type: "message",
        id,
        parentId,
        timestamp: "2025-01-01T00:00:00.000Z",
        message: { role: "user", content: [{ type: "text", text }], timestamp: 1 },
      });
    const header = {
      type: "session",
      version: 3,
      id: "dmg",
      timestamp: "2025-01-01T00:00:00.000Z",
      cwd: "/w",
    };
    writeFileSync(
      file,
      [
        JSON.stringify(header),
        entry("a1", null, "root text"),
        entry("b1", "a1", "child text"),
        entry("c1", "gone", "orphan text"),
        entry("d1", "e1", "cycle one"),
        entry("e1", "d1", "cycle two"),
        "",
      ].join("\n"),
    );
    for (const format of ["html", "md"]) {
      const r = await runBin(["export", file, "--tree", "--format", format]);
      expect(r.code, format).toBe(0);
      for (const text of ["root text", "child text", "orphan text", "cycle one", "cycle two"]) {
        expect(r.stdout, `${format}: ${text}`).toContain(text);
      }
    }
  });
});

describe("export errors", () => {
  it("exit 2 for bad arguments and unwritable output, 1 for no session or leaf match; the source is never overwritten", async () => {
    const demo = writeDemoSession(tmp.project);
    const before = readFileSync(demo.path);
    const cases: [string[], number, RegExp][] = [
      [["export", demo.path, "--format", "pdf"], 2, /pdf/],
      [["export", demo.path, "--leaf", "nope"], 1, /no entry "nope"/],
      [["export", demo.path, "-o", demo.path], 2, /refusing to overwrite/],
      [["export", demo.path, "-o", join(tmp.scratch, "missing", "x.md")], 2, /cannot write/],
      [["export", "no-such-session", "--dir", tmp.root], 1, /no session matches/],
      [["export"], 2, /missing required argument/],
    ];
    for (const [args, code, reason] of cases) {
      const r = await runBin(args);
      expect(r.code, args.join(" ")).toBe(code);
      expect(r.stderr, args.join(" ")).toMatch(reason);
      expect(r.stdout).toBe("");
    }
    expect(readFileSync(demo.path).equals(before)).toBe(true);
  });
});
