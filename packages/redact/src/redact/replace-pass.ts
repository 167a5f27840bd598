/**
 * Pass 2: every occurrence of every secret pass 1 found, wherever it is — also where no rule
 * would have seen it (a key echoed without the `AWS_SECRET_ACCESS_KEY=` before it, a token in
 * a place its rule's context does not fit) — replaced by its placeholder. Lines are gated as in
 * pass 1, by a raw-safe piece of each secret; occurrences are found in decoded segments,
 * leftmost and longest first, and written over the raw characters that spell them.
 * Placeholders are numbered per rule in the order their secrets first occur in the file.
 */

import { type LineSegments, lineSegments } from "../json/segments.js";
import { type CharFrequency, LiteralScanner, trieSource } from "../literals/literal-scanner.js";
import { isRawSafe } from "../rules/detector.js";
import { ESCAPE_TRIGGERS, type KnownSecret } from "./detect-pass.js";
import { type RedactionReport, ReportBuilder } from "./report.js";

/** Pieces shorter than this gate nothing (every line is read). */
const MIN_PIECE = 4;

/** The longest run of raw-safe characters in `s` (what the raw line must hold). */
export function rawPiece(s: string): string {
  let best = "";
  let start = 0;
  for (let i = 0; i <= s.length; i++) {
    if (i === s.length || !isRawSafe(s[i] as string)) {
      if (i - start > best.length) best = s.slice(start, i);
      start = i + 1;
    }
  }
  return best;
}

/** One replacement in a raw line. */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly secret: string;
}

/** The placeholder text of a rule's `n`th secret. */
export function placeholder(rule: string, n: number): string {
  return `[REDACTED:${rule}#${n}]`;
}

/**
 * Finds occurrences of the known secrets in a text, leftmost-longest, each widened to cover
 * every secret that starts inside it and reaches past it: two detectors may find overlapping
 * secrets (the entropy detector's run `AWS_SECRET_ACCESS_KEY=Kx8v…` ends at the first `/` of
 * the key the AWS rule found), and replacing only the leftmost would leave the other's tail.
 */
export class SecretMatcher {
  private readonly regex: RegExp | undefined;

  constructor(secrets: Iterable<string>) {
    // Longest first, so a trie node that ends one secret still tries a longer one through it.
    const words = [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
    this.regex = words.length === 0 ? undefined : new RegExp(trieSource(words), "g");
  }

  /**
   * Calls `on(start, end, secret)` for each span of `text` to replace, left to right, never
   * overlapping: `secret` is the leftmost secret there (its placeholder names the span), and
   * the span also covers the secrets overlapping it.
   */
  each(text: string, on: (start: number, end: number, secret: string) => void): void {
    const regex = this.regex;
    if (regex === undefined) return;
    regex.lastIndex = 0;
    let m = regex.exec(text);
    while (m !== null) {
      const start = m.index;
      const secret = m[0];
      let end = start + secret.length;
      // Every secret starting inside the span widens it to its own end.
      regex.lastIndex = start + 1;
      let next = regex.exec(text);
      while (next !== null && next.index < end) {
        end = Math.max(end, next.index + next[0].length);
        regex.lastIndex = next.index + 1;
        next = regex.exec(text);
      }
      on(start, end, secret);
      m = next;
    }
  }
}

/** What pass 2 produced: the new lines, the report, the placeholder of each secret. */
export interface Replaced {
  readonly lines: string[];
  readonly report: RedactionReport;
  readonly placeholders: ReadonlyMap<string, string>;
}

/** Runs pass 2 over `lines` (not changed; a new array is returned). */
export function replaceSecrets(
  lines: readonly string[],
  known: ReadonlyMap<string, KnownSecret>,
  cache: ReadonlyMap<number, LineSegments>,
  frequency: CharFrequency,
): Replaced {
  const matcher = new SecretMatcher(known.keys());
  const pieces = [...known.keys()].map(rawPiece);
  const everyLine = pieces.some((p) => p.length < MIN_PIECE);
  const gate = new LiteralScanner<number>(
    [
      ...pieces.map((text) => ({ text, ignoreCase: false, tag: 0 })),
      ...ESCAPE_TRIGGERS.map((text) => ({ text, ignoreCase: false, tag: 0 })),
    ],
    frequency,
  );
  const out = lines.slice();
  const numbers = new Map<string, number>();
  const placeholders = new Map<string, string>();
  const report = new ReportBuilder();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!everyLine && !gate.test(line)) continue;
    const segs = cache.get(i) ?? lineSegments(line);
    const edits: Edit[] = [];
    for (const seg of segs.segments) {
      matcher.each(seg.text, (a, b, secret) => {
        edits.push({ start: seg.toRaw(a), end: seg.toRaw(b), secret });
      });
    }
    if (edits.length === 0) continue;
    // In file order, the longer first where two start together. The segments of a JSON line
    // are disjoint, but a damaged line is read as it is and unescaped, which finds one secret
    // twice in one place: an edit overlapping the one before is merged into it.
    edits.sort((x, y) => x.start - y.start || y.end - x.end);
    let text = "";
    let at = 0;
    for (const e of edits) {
      if (e.start < at) {
        at = Math.max(at, e.end);
        continue;
      }
      const info = known.get(e.secret) as KnownSecret;
      let ph = placeholders.get(e.secret);
      if (ph === undefined) {
        const n = (numbers.get(info.rule) ?? 0) + 1;
        numbers.set(info.rule, n);
        ph = placeholder(info.rule, n);
        placeholders.set(e.secret, ph);
      }
      text += line.slice(at, e.start) + ph;
      at = e.end;
      // The header's id names the session, not an entry.
      report.add(
        info.rule,
        info.source,
        ph,
        i + 1,
        segs.type === "session" ? undefined : segs.entryId,
      );
    }
    out[i] = text + line.slice(at);
  }
  return { lines: out, report: report.build(), placeholders };
}
