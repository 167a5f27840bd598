/**
 * The rule set as this version runs it, for documentation, `--rules` listings and tests: every
 * rule of the preset with what gates it (the literals derived from its regexes), or why it
 * sees every text, is inert, or is not used.
 */
import preset from "@secretlint/secretlint-rule-preset-recommend/package.json" with {
  type: "json",
};
import { EXCLUDED_RULES, secretlintRules } from "./secretlint-rules.js";

/** One rule of the preset. */
export interface RuleSetEntry {
  readonly id: string;
  /** `gated`: handed only texts holding one of `literals`; `every-text`; `inert`; `excluded`. */
  readonly status: "gated" | "every-text" | "inert" | "excluded";
  readonly literals: readonly string[];
  readonly reason?: string;
}

/** The rule set and its version. */
export interface RuleSetDescription {
  readonly preset: string;
  readonly rules: readonly RuleSetEntry[];
}

/** Describes the secretlint rules in use. */
export async function describeRuleSet(): Promise<RuleSetDescription> {
  const set = await secretlintRules();
  const rules: RuleSetEntry[] = set.probes.map((p) => {
    const detector = set.detectors.find((d) => d.source === p.id);
    if (p.inert)
      return {
        id: p.id,
        status: "inert",
        literals: [],
        reason: "reads no session text (file-type rule)",
      };
    const literals = detector?.literals?.flatMap((l) => l.literals) ?? [];
    return {
      id: p.id,
      status: detector?.literals === undefined ? "every-text" : "gated",
      literals,
    };
  });
  for (const [id, reason] of Object.entries(EXCLUDED_RULES))
    rules.push({ id, status: "excluded", literals: [], reason });
  return { preset: `${preset.name}@${preset.version}`, rules };
}
