/**
 * The rule set: secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`),
 * run through `@secretlint/core`'s `lintSource`, one detector per rule.
 *
 * Each rule is *probed* once: its `file` handler runs against a stand-in source whose content
 * records the regexes the rule hands to `content.matchAll` and notes any other use of the
 * content. A rule that touched the content only through `matchAll` reports only inside matches
 * of those regexes, so the literals those regexes require ({@link requiredLiterals}) gate it:
 * texts without them are never handed to it. A rule that used its content any other way, threw,
 * or yielded a regex without selective literals sees every text. A rule that read nothing and
 * reported nothing (the GCP rule, which reads only `.json` and `.p12` files) is inert here.
 *
 * Many texts go to `lintSource` at once, joined by {@link SEPARATOR}, so its per-call cost is
 * paid per batch rather than per string.
 */
import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { rules as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintRuleContext, SecretLintRuleCreator } from "@secretlint/types";
import { type RequiredLiterals, requiredLiterals } from "../literals/required-literals.js";
import { type Detector, type Finding, isRawSafe, MIN_LITERAL, ruleNameOf } from "./detector.js";

/** Rules of the preset that are not used, and why. */
export const EXCLUDED_RULES: Readonly<Record<string, string>> = {
  "@secretlint/secretlint-rule-filter-comments":
    "a filter, not a scanner: a `secretlint-disable` comment in the session's own text would switch detection off",
};

/** Options given to rules (defaults otherwise). */
export const RULE_OPTIONS: Readonly<Record<string, object>> = {
  // Off by default in secretlint; on here: an access key id is half of an AWS credential.
  "@secretlint/secretlint-rule-aws": { enableIDScanRule: true },
};

/**
 * Between two texts of a batch: line breaks end every match of `.` and of classes without
 * `\n`, the NUL ends the rest (no rule's class holds it), and a line break is what a rule's
 * `^`, `\b` or `(?<!\p{L})` sees at a text's start.
 */
export const SEPARATOR = "\n\u0000\n";

/** What probing a rule found. */
export interface RuleProbe {
  readonly id: string;
  /** The regexes it matches the content with. */
  readonly regexes: readonly RegExp[];
  /** It used the content some other way, or threw: it must see every text. */
  readonly opaque: boolean;
  /** It read nothing and reported nothing: it never finds anything in session text. */
  readonly inert: boolean;
}

/**
 * What rules are told about the "file": plain text with no name. Rules that look at names read
 * none (the npm rule then checks for `x-oauth-basic` URLs as it does in a `package.json`), and
 * the GCP rule, which reads only `.json` and `.p12` files, is inert.
 */
const FILE = {
  ext: ".txt",
  contentType: "text" as const,
  filePath: undefined as unknown as string,
};

async function probe(rule: SecretLintRuleCreator): Promise<RuleProbe> {
  const regexes: RegExp[] = [];
  let opaque = false;
  let used = false;
  const content = new Proxy(
    {},
    {
      get(_target, property) {
        used = true;
        if (property === "matchAll") {
          return (regex: RegExp) => {
            regexes.push(regex);
            return [][Symbol.iterator]();
          };
        }
        opaque = true;
        return undefined;
      },
    },
  );
  const context: SecretLintRuleContext = {
    sharedOptions: {},
    createTranslator: (() => (messageId: string, data: unknown) => ({
      message: "",
      messageId,
      data,
    })) as never,
    report: () => {
      used = true;
      opaque = true;
    },
    ignore: () => {},
  };
  try {
    const handler = rule.create(context, (RULE_OPTIONS[rule.meta.id] ?? {}) as never);
    if (handler.identifier !== undefined) opaque = true;
    const source = { ...FILE, content, physicalFilePath: undefined, hasBOM: false };
    await handler.file?.(source as never);
  } catch {
    opaque = true;
  }
  return { id: rule.meta.id, regexes, opaque, inert: !used };
}

class SecretlintRule implements Detector {
  readonly source: string;
  readonly literals: readonly RequiredLiterals[] | undefined;

  constructor(
    private readonly rule: SecretLintRuleCreator,
    probed: RuleProbe,
  ) {
    this.source = rule.meta.id;
    const literals = probed.regexes.map((r) => requiredLiterals(r, MIN_LITERAL, isRawSafe));
    const gated =
      !probed.opaque && probed.regexes.length > 0 && literals.every((l) => l !== undefined);
    this.literals = gated ? (literals as RequiredLiterals[]) : undefined;
  }

  async detect(texts: readonly string[]): Promise<Finding[][]> {
    const starts: number[] = [];
    let content = SEPARATOR;
    for (const t of texts) {
      starts.push(content.length);
      content += t + SEPARATOR;
    }
    const result = await lintSource({
      source: { content, ...FILE },
      options: {
        config: {
          rules: [
            {
              id: this.rule.meta.id,
              rule: this.rule,
              options: RULE_OPTIONS[this.rule.meta.id] ?? {},
            },
          ],
        },
        noPhysicFilePath: true,
      },
    });
    const out: Finding[][] = texts.map(() => []);
    for (const message of result.messages) {
      // The message and its data hold the secret itself: never printed, never kept.
      const [a, b] = secretRange(content, message.range, message.data);
      const rule = ruleNameOf(kebab(message.messageId));
      // A match that ran over a separator is kept for every text it covers (never lost).
      for (let i = textAt(starts, a); i < texts.length && (starts[i] as number) < b; i++) {
        const s = starts[i] as number;
        const len = (texts[i] as string).length;
        const start = Math.max(a - s, 0);
        const end = Math.min(b - s, len);
        if (end > start) (out[i] as Finding[]).push({ start, end, rule });
      }
    }
    return out;
  }
}

/**
 * Where the secret a message reports is. Most rules report its range; a few (the AWS secret
 * key, the npm `_authToken` and `x-oauth-basic` checks of 13.1.0) report a range that starts at
 * the whole match (`AWS_SECRET_ACCESS_KEY = …`) but has the length of the secret inside it,
 * which would redact the name and leave the secret, or its tail. Each message also carries the
 * secret's text in its data: a reported text at least as long as the range, found from the
 * range's start on within the same text of the batch, is the secret — wherever it starts, also
 * past the range's end when the name and the spaces after it are longer than the secret.
 * Shorter reported texts are parts (the GitHub token's type name) and change nothing.
 */
export function secretRange(
  content: string,
  range: readonly [number, number],
  data: unknown,
): readonly [number, number] {
  if (typeof data !== "object" || data === null) return range;
  const separator = content.indexOf(SEPARATOR, range[0]);
  const textEnd = separator === -1 ? content.length : separator;
  let found: readonly [number, number] | undefined;
  for (const value of Object.values(data)) {
    if (typeof value !== "string" || value.length < range[1] - range[0]) continue;
    const at = content.indexOf(value, range[0]);
    if (at === -1 || at + value.length > textEnd) continue;
    // The longest such text, then the first.
    if (found === undefined || value.length > found[1] - found[0]) found = [at, at + value.length];
  }
  return found ?? range;
}

/** The index of the text holding `pos` (the last starting at or before it). */
function textAt(starts: readonly number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= pos) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(lo, 0);
}

/** `AWSSecretAccessKey`, `GITHUB_TOKEN` → `aws-secret-access-key`, `github-token`. */
export function kebab(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .replace(/_/g, "-")
    .toLowerCase();
}

/** The rule set as used here: each rule with its probe. */
export interface RuleSet {
  readonly detectors: readonly Detector[];
  readonly probes: readonly RuleProbe[];
}

let cached: Promise<RuleSet> | undefined;

/**
 * secretlint's recommended rules (minus {@link EXCLUDED_RULES}), probed once per process.
 *
 * Loading them switches secretlint's profiler off: in 13.1.0 it is on by default and keeps a
 * performance mark of every rule of every `lintSource` call, in Node's timeline and in its own
 * arrays, for good — about 40 marks and 6 KB per redacted session, without bound in a process
 * that redacts many (an extension, a daemon, a test run). It serves only secretlint's own
 * `--profile` output, which nothing here reads.
 */
export function secretlintRules(): Promise<RuleSet> {
  cached ??= (async () => {
    secretLintProfiler.setEnabled(false);
    const probes: RuleProbe[] = [];
    const detectors: Detector[] = [];
    for (const rule of recommended as SecretLintRuleCreator[]) {
      if (Object.hasOwn(EXCLUDED_RULES, rule.meta.id)) continue;
      const probed = await probe(rule);
      probes.push(probed);
      if (!probed.inert) detectors.push(new SecretlintRule(rule, probed));
    }
    return { detectors, probes };
  })();
  return cached;
}
