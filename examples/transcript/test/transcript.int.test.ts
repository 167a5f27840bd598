import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { removeTempDir, tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { runStart } from "../../run-start.js";
import { CORPUS_DIR, openCopy, resolveSession } from "../src/corpus.js";
import { sessionTranscript } from "../src/transcript.js";

const files = readdirSync(CORPUS_DIR)
  .filter((f) => f.endsWith(".jsonl"))
  .sort();
const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Entry ids of the titles in a section (a heading or one-liner ending "· `id`"). */
function titleIds(section: string): string[] {
  return [...section.matchAll(/^(?:> )*(?:### |_).*· `([^`]+)`$/gm)].map((m) => m[1] as string);
}

/** Usage records counted straight from the raw lines (an independent count). */
function rawUsageRecords(path: string): number {
  let n = 0;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line);
    const m = r.type === "message" ? r.message : undefined;
    if (m && (m.role === "assistant" || m.role === "toolResult") && m.usage) n++;
    else if (["compaction", "branch_summary", "usage"].includes(r.type) && r.usage) n++;
  }
  return n;
}

describe("transcript example", () => {
  it("finds the corpus", () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  for (const name of files) {
    it(`${name}: branch and tree sections hold the right entries; the original is untouched`, () => {
      const source = resolveSession(name);
      const before = sha(source);
      const opened = openCopy(source);
      try {
        const sm = opened.sm;
        const md = sessionTranscript(sm);
        const [head = "", rest = ""] = md.split("\n## Current branch\n");
        const [branch = "", tree = ""] = rest.split("\n## Whole tree\n");
        expect(titleIds(branch)).toEqual(sm.getBranch().map((e) => e.id));
        expect(titleIds(tree).sort()).toEqual(
          sm
            .getEntries()
            .map((e) => e.id)
            .sort(),
        );
        const row = head.split("\n").find((l) => l.startsWith("| whole tree |")) ?? "";
        expect(row.split("|")[2]?.trim()).toBe(rawUsageRecords(source).toLocaleString("en-US"));
      } finally {
        opened.close();
      }
      expect(sha(source)).toBe(before);
    });
  }

  it("the branched session reads as expected", () => {
    const opened = openCopy(resolveSession("ref-1.6-branched.jsonl"));
    try {
      const md = sessionTranscript(opened.sm, { tree: false });
      expect(md.startsWith("# Layout and docs\n")).toBe(true);
      expect(md).toContain("| `Tools/summaries` | 2 |");
      expect(md).toContain("_1 other branch continues from here_");
      expect(md).not.toContain("## Whole tree");
    } finally {
      opened.close();
    }
  });

  it("runs from the README command, to stdout or to a file", () => {
    const run = runStart(import.meta.url);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("## Whole tree");
    const dir = tempDir("pi-transcript-test-");
    try {
      const out = join(dir, "t.md");
      const v1 = runStart(import.meta.url, "before-compaction.jsonl", "--no-tree", "--out", out);
      expect(v1.status).toBe(0);
      const written = readFileSync(out, "utf8");
      expect(written).toContain("## Current branch");
      expect(written).not.toContain("## Whole tree");
      expect(written).toContain("### Compaction");
    } finally {
      removeTempDir(dir);
    }
  });
});
