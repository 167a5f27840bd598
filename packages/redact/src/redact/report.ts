/**
 * What a redaction did, per rule: how many distinct secrets, how many places, which entries
 * and lines. A report never holds a secret, nor a prefix or length of one: only rule names,
 * counts, entry ids and line numbers.
 */

/** One rule's part of a redaction. */
export interface RuleReport {
  /** The rule name its placeholders carry (`github-token`). */
  readonly rule: string;
  /** Where the rule comes from: a secretlint rule id, `pattern`, `entropy` or `paths`. */
  readonly source: string;
  /** Distinct secrets (each one placeholder). */
  readonly secrets: number;
  /** Places replaced. */
  readonly occurrences: number;
  /** Ids of the entries changed, in file order, each once. */
  readonly entryIds: readonly string[];
  /** Lines changed (1-based), in order, each once: the header and lines without an id too. */
  readonly lines: readonly number[];
}

/** What {@link redactSession} did to one file. */
export interface RedactionReport {
  /** Distinct secrets replaced. */
  readonly secrets: number;
  /** Places replaced. */
  readonly occurrences: number;
  /** Lines changed. */
  readonly linesChanged: number;
  /** Per rule, by rule name. */
  readonly rules: readonly RuleReport[];
}

/** Builds a report from occurrences seen in file order. */
export class ReportBuilder {
  private readonly rules = new Map<
    string,
    {
      source: string;
      secrets: Set<string>;
      occurrences: number;
      entryIds: Set<string>;
      lines: Set<number>;
    }
  >();
  private readonly changedLines = new Set<number>();

  /** Records one replaced occurrence of the secret that `placeholder` stands for. */
  add(
    rule: string,
    source: string,
    placeholder: string,
    line: number,
    entryId: string | undefined,
  ): void {
    let r = this.rules.get(rule);
    if (r === undefined) {
      r = { source, secrets: new Set(), occurrences: 0, entryIds: new Set(), lines: new Set() };
      this.rules.set(rule, r);
    }
    r.secrets.add(placeholder);
    r.occurrences++;
    // Sets keep insertion order: file order, each once.
    if (entryId !== undefined) r.entryIds.add(entryId);
    r.lines.add(line);
    this.changedLines.add(line);
  }

  build(): RedactionReport {
    const rules = [...this.rules]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([rule, r]) => ({
        rule,
        source: r.source,
        secrets: r.secrets.size,
        occurrences: r.occurrences,
        entryIds: [...r.entryIds],
        lines: [...r.lines],
      }));
    return {
      secrets: rules.reduce((n, r) => n + r.secrets, 0),
      occurrences: rules.reduce((n, r) => n + r.occurrences, 0),
      linesChanged: this.changedLines.size,
      rules,
    };
  }
}

/** At most `max` items of a list, then how many more. */
function listed(items: readonly (string | number)[], max: number): string {
  const shown = items.slice(0, max).join(", ");
  return items.length > max ? `${shown}, … (${items.length - max} more)` : shown;
}

/** The report as text lines (for stderr): a summary, then one line per rule. */
export function formatReport(report: RedactionReport, subject: string): string {
  if (report.secrets === 0) return `${subject}: nothing to redact\n`;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const lines = [
    `${subject}: ${plural(report.secrets, "secret")} redacted in ${plural(report.occurrences, "place")} on ${plural(report.linesChanged, "line")}`,
  ];
  const width = Math.max(...report.rules.map((r) => r.rule.length));
  for (const r of report.rules) {
    const where =
      r.entryIds.length > 0 ? `entries ${listed(r.entryIds, 6)}` : `lines ${listed(r.lines, 6)}`;
    lines.push(
      `  ${r.rule.padEnd(width)}  ${plural(r.secrets, "secret").padEnd(10)} ${plural(r.occurrences, "place").padEnd(10)} ${where}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
