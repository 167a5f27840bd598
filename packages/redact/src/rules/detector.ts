/**
 * What every source of rules (the secretlint rule set, the user's patterns, the entropy
 * detector, the path rules) offers the redactor: a name, the literals that gate it, and a way
 * to find secrets in a batch of texts.
 */
import type { RequiredLiterals } from "../literals/required-literals.js";

/** One secret found in a text: `[start, end)` in that text and the rule that names it. */
export interface Finding {
  readonly start: number;
  readonly end: number;
  /** The placeholder's rule name (`github-token`): lower case, digits, `.`, `_`, `-`. */
  readonly rule: string;
}

/** A source of findings. */
export interface Detector {
  /** Where its rules come from, for the report (`@secretlint/secretlint-rule-github`, `pattern`). */
  readonly source: string;
  /**
   * Literals one of which every finding's text contains, per regex; `undefined` when it must
   * see every text (its matches need no literal, or it is not made of regexes).
   */
  readonly literals: readonly RequiredLiterals[] | undefined;
  /** The findings in each text (positions in that text). */
  detect(texts: readonly string[]): Promise<Finding[][]>;
}

/** Characters that can stand in a rule name (and so in a placeholder) as they are. */
const NAME_UNSAFE = /[^a-z0-9._-]+/g;

/** `name` as a rule name: lower case, runs of other characters as one `-`, never empty. */
export function ruleNameOf(name: string): string {
  const s = name
    .toLowerCase()
    .replace(NAME_UNSAFE, "-")
    .replace(/^-+|-+$/g, "");
  return s === "" ? "secret" : s;
}

/**
 * A raw-safe character: one JSON writes as itself (not `"`, `\` or a control character), so
 * a literal of such characters found in a decoded string is also in the raw line, unless the
 * line spells one with `\u` or `\/` (such lines are always read in full).
 */
export function isRawSafe(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return c >= 0x20 && c !== 0x22 && c !== 0x5c;
}

/** The shortest literal worth gating on (shorter ones occur nearly everywhere). */
export const MIN_LITERAL = 3;
