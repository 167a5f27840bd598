/**
 * The real sessions of `fixtures/corpus/`: the rule set finds nothing in them (no false
 * positives), `--paths` finds only the working and home directories, and the opt-in entropy
 * detector's findings there are the ones the README lists (request ids and the like).
 */
import { readFileSync } from "node:fs";
import { redactSession } from "@pi-sessions/redact";
import { corpusFile } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";

const FILES = ["large-session.jsonl", "before-compaction.jsonl", "ref-1.6-branched.jsonl"];

describe("the corpus", () => {
  for (const file of FILES) {
    const text = readFileSync(corpusFile(file), "utf8");

    it(`${file}: the rule set redacts nothing and returns the same text`, async () => {
      const r = await redactSession(text);
      expect(r.report.rules).toEqual([]);
      expect(r.text).toBe(text);
    });

    it(`${file}: --paths redacts only the working and home directories`, async () => {
      const r = await redactSession(text, { paths: true });
      const cwd = (JSON.parse(text.slice(0, text.indexOf("\n"))) as { cwd: string }).cwd;
      expect(
        r.report.rules.map((x) => x.rule).every((rule) => rule === "cwd" || rule === "home-dir"),
      ).toBe(true);
      expect(r.report.rules.find((x) => x.rule === "cwd")?.occurrences).toBeGreaterThan(0);
      expect(r.text.includes(cwd)).toBe(false);
      expect(/\/(?:home|Users)\/[a-z]/.test(r.text)).toBe(false);
    });
  }

  it("the entropy detector's findings in the corpus are the README's (macOS temp folder names, a request id, a tool-call id quoted in text)", async () => {
    const counts: Record<string, number> = {};
    for (const file of FILES) {
      const r = await redactSession(readFileSync(corpusFile(file), "utf8"), { entropy: true });
      counts[file] = r.report.secrets;
    }
    expect(counts).toEqual({
      "large-session.jsonl": 3,
      "before-compaction.jsonl": 4,
      "ref-1.6-branched.jsonl": 0,
    });
  });
});
