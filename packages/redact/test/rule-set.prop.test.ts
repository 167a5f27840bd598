/**
 * Gating and batching lose nothing: for generated texts (words, punctuation, escapes, planted
 * secrets), what the redactor replaces is exactly what secretlint's own `lintSource` reports
 * when handed that text alone with every rule of the preset — the redactor only skips texts
 * the literals say no rule can match, and joins the rest into batches.
 */

import { describeRuleSet, redactSession } from "@pi-sessions/redact";
import { fcOptions } from "@pi-sessions/test-utils";
import { plantedSecretArb } from "@pi-sessions/test-utils/secrets";
import { lintSource } from "@secretlint/core";
import { rules } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintRuleCreator } from "@secretlint/types";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const used = (rules as SecretLintRuleCreator[]).filter(
  (r) => !r.meta.id.endsWith("filter-comments"),
);
const config = {
  rules: used.map((rule) => ({
    id: rule.meta.id,
    rule,
    options: rule.meta.id.endsWith("-aws") ? { enableIDScanRule: true } : {},
  })),
};

/** The secrets secretlint reports in `text` alone (the reported text, as in its messages). */
async function oracle(text: string): Promise<Set<string>> {
  const result = await lintSource({
    source: {
      content: text,
      filePath: undefined as unknown as string,
      ext: ".txt",
      contentType: "text",
    },
    options: { config, noPhysicFilePath: true },
  });
  const out = new Set<string>();
  for (const m of result.messages) {
    const values = Object.values(m.data ?? {}).filter((v): v is string => typeof v === "string");
    out.add(values.sort((a, b) => b.length - a.length)[0] ?? text.slice(m.range[0], m.range[1]));
  }
  return out;
}

const pieceArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "the",
      "deploy",
      "secret",
      "token",
      "account",
      "https://",
      "postgres",
      "key",
      "\n",
      " ",
      "=",
      ":",
      "_",
      "-",
      "@",
      '"',
      "\\",
      "SG.",
      "ghp_",
      "sk-",
      "xoxb-",
      "AKIA",
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: plantedSecretArb.map((s) => ` ${s.text} `) },
);

describe("the gated rule set agrees with secretlint", () => {
  it("redacts exactly what lintSource reports on each text alone (numRuns 150)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pieceArb, { maxLength: 14 }), async (pieces) => {
        const text = pieces.join("");
        const expected = await oracle(text);
        const line = JSON.stringify({
          type: "custom",
          id: "a",
          parentId: null,
          timestamp: "t",
          customType: "x",
          data: text,
        });
        const r = await redactSession(`{"type":"session","id":"s"}\n${line}\n`);
        const out = JSON.parse(r.text.split("\n")[1] as string).data as string;
        for (const s of expected) {
          expect(out.includes(s)).toBe(false);
          expect(r.redactText(s)).toMatch(/^\[REDACTED:[a-z0-9._-]+#\d+\]$/);
        }
        const placeholders = new Set(out.match(/\[REDACTED:[a-z0-9._-]+#\d+\]/g) ?? []);
        expect(placeholders.size).toBe(new Set([...expected].map((s) => r.redactText(s))).size);
      }),
      fcOptions(150),
    );
  });

  it("every rule of the preset is gated by literals taken from its regexes, inert, or excluded", async () => {
    const set = await describeRuleSet();
    expect(set.preset).toMatch(/^@secretlint\/secretlint-rule-preset-recommend@13\./);
    const ids = (rules as SecretLintRuleCreator[]).map((r) => r.meta.id).sort();
    expect(set.rules.map((r) => r.id).sort()).toEqual(ids);
    for (const r of set.rules) {
      if (r.status === "gated") expect(r.literals.length).toBeGreaterThan(0);
      else expect(["inert", "excluded"]).toContain(r.status);
    }
    expect(set.rules.find((r) => r.id.endsWith("-github"))?.literals).toEqual(
      expect.arrayContaining(["ghp_", "github_pat_"]),
    );
  });
});
