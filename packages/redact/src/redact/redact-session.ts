/**
 * `redactSession`: a session file's text in, the same session out with each secret replaced by
 * a placeholder naming its rule (`[REDACTED:github-token#1]`, the same secret the same
 * placeholder throughout the file), plus a report (SPEC X1–X3).
 *
 * The file is handled as lines of text, never re-serialised: a line without secrets is
 * returned as the very same string, and in a line with secrets only the characters that spell
 * them change. Ids, parents, types, key order, numbers, whitespace, damaged lines and unknown
 * entry types all stay as they were, so pi opens the result with the same tree.
 */
import type { LineSegments } from "../json/segments.js";
import { charFrequency } from "../literals/literal-scanner.js";
import type { Detector } from "../rules/detector.js";
import { type EntropyOptions, entropyDetector } from "../rules/entropy-rule.js";
import { cwdSecrets, homeDirDetector } from "../rules/path-rules.js";
import { patternDetector, type UserPattern } from "../rules/pattern-rules.js";
import { secretlintRules } from "../rules/secretlint-rules.js";
import { detectSecrets, type KnownSecret } from "./detect-pass.js";
import { replaceSecrets, SecretMatcher } from "./replace-pass.js";
import type { RedactionReport } from "./report.js";

/** How much of the file's start is sampled for character frequencies. */
const SAMPLE_CHARS = 1 << 20;

/** What to look for besides the rule set. */
export interface RedactOptions {
  /**
   * Also redact paths that name a person or machine: the header's `cwd` (and its sessions
   * folder spelling) wherever it occurs, and home directories (`/home/<user>`, `/Users/<user>`,
   * `C:\Users\<user>`, `/root`). Default false.
   */
  readonly paths?: boolean;
  /** The user's own rules. */
  readonly patterns?: readonly UserPattern[];
  /** The high-entropy detector: `true` for its defaults. Default off. */
  readonly entropy?: boolean | EntropyOptions;
  /** Strings never redacted, though a rule finds them (public example keys, test fixtures). */
  readonly allow?: readonly string[];
}

/** The redacted file and what was done. */
export interface RedactionResult {
  /** The redacted file text (the input itself when nothing was found). */
  readonly text: string;
  /** What was replaced, per rule (never a secret). */
  readonly report: RedactionReport;
  /**
   * Applies this file's placeholders to another text (a path, a title shown beside the
   * session): every secret found in the file becomes the same placeholder there.
   */
  redactText(text: string): string;
}

/** The detectors for `options`, in the order that decides which rule names a secret. */
export async function detectorsFor(options: RedactOptions): Promise<Detector[]> {
  const detectors: Detector[] = [...(await secretlintRules()).detectors];
  for (const p of options.patterns ?? []) detectors.push(patternDetector(p));
  if (options.paths) detectors.push(homeDirDetector());
  if (options.entropy)
    detectors.push(entropyDetector(options.entropy === true ? {} : options.entropy));
  return detectors;
}

/** The `cwd` of the file's header: the first record, when its `type` is `session`. */
function headerCwd(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    let record: unknown;
    try {
      record = JSON.parse(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
    } catch {
      continue; // a damaged line before the header is skipped, as loading does
    }
    const r = record as Record<string, unknown> | null;
    return r?.type === "session" && typeof r.cwd === "string" ? r.cwd : undefined;
  }
  return undefined;
}

/** Redacts the secrets in a session file's text. */
export async function redactSession(
  text: string,
  options: RedactOptions = {},
): Promise<RedactionResult> {
  const lines = text.split("\n");
  const allow = new Set(options.allow ?? []);
  const cache = new Map<number, LineSegments>();
  // Character counts of the file's start choose the rarest part of each literal to scan for.
  const frequency = charFrequency(text.slice(0, SAMPLE_CHARS));
  const detectors = await detectorsFor(options);
  const known = await detectSecrets(lines, detectors, (s) => allow.has(s), cache, frequency);
  if (options.paths) {
    const cwd = headerCwd(lines);
    for (const s of cwd === undefined ? [] : cwdSecrets(cwd)) {
      if (!allow.has(s))
        known.set(s, { rule: "cwd", source: "paths", rank: -1 } satisfies KnownSecret);
    }
  }
  if (known.size === 0) {
    const report = { secrets: 0, occurrences: 0, linesChanged: 0, rules: [] };
    return { text, report, redactText: (t) => t };
  }
  const replaced = replaceSecrets(lines, known, cache, frequency);
  const matcher = new SecretMatcher(known.keys());
  const redactText = (t: string): string => {
    let out = "";
    let at = 0;
    matcher.each(t, (a, b, secret) => {
      const info = known.get(secret) as KnownSecret;
      out += t.slice(at, a) + (replaced.placeholders.get(secret) ?? `[REDACTED:${info.rule}]`);
      at = b;
    });
    return out + t.slice(at);
  };
  return { text: replaced.lines.join("\n"), report: replaced.report, redactText };
}
