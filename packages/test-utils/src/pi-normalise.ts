/**
 * Normalises what one side of a comparison with pi wrote (core's pi-runtime test, the CLI's
 * launcher tests), so the two sides can be compared line by line: random ids and times become
 * numbers by first appearance, in one pass over the text in a fixed order (the side's session
 * files in the order pi reached them).
 *
 * - the side's temp root (also in its cwd-encoded form `--tmp-…-work--`) → `<root>`
 * - session ids (UUIDs, also inside file names and `parentSession` paths) → `<session#n>`
 * - entry ids (only the ids the side's files really assign; they also appear in text, e.g.
 *   the extension's "Stamped <id>") → `<id#n>`
 * - ISO timestamps, file-name timestamps (`2026-01-01T10-00-00-000Z`) and epoch-ms message
 *   `timestamp` numbers → `<t#n>`, one numbering for all three forms of the same instant
 * - `durationMs` (measured with performance.now, so it depends on machine speed) → 0
 *
 * With `times: "erased"` every time becomes `<t>`: for runs on the real clock, where two
 * entries may fall in one millisecond on one side and not on the other.
 */

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const ISO = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";
const FILE_TS = "\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z";
// Alternatives in one expression, so that numbering follows the order in the text.
const TOKENS = new RegExp(
  [
    `(?<![0-9A-Za-z])(?<uuid>${UUID})(?![0-9A-Za-z])`,
    `(?<iso>${ISO})`,
    `(?<fileTs>${FILE_TS})`,
    `"timestamp":(?<ms>\\d{12,14})(?![0-9])`,
    `"durationMs":(?<duration>\\d+(?:\\.\\d+)?)`,
    `(?<![0-9A-Za-z-])(?<hex>[0-9a-f]{8})(?![0-9A-Za-z-])`,
  ].join("|"),
  "g",
);

/** Numbers values by first appearance: the first one seen is 1, the next new one 2, … */
class Numbering {
  private readonly seen = new Map<string, number>();
  constructor(private readonly prefix: string) {}
  of(value: string): string {
    let n = this.seen.get(value);
    if (n === undefined) {
      n = this.seen.size + 1;
      this.seen.set(value, n);
    }
    return `<${this.prefix}#${n}>`;
  }
}

/** The instant of a file-name timestamp (`[:.]` were replaced by `-`), as ISO. */
function fileTsToIso(ts: string): string {
  return `${ts.slice(0, 13)}:${ts.slice(14, 16)}:${ts.slice(17, 19)}.${ts.slice(20)}`;
}

/** Normalises text of one side; keeps its numbering across calls (see the module comment). */
export class SideNormaliser {
  private readonly sessions = new Numbering("session");
  private readonly ids = new Numbering("id");
  private readonly instants = new Numbering("t");
  private readonly roots: string[];

  /**
   * @param root the side's temp root
   * @param entryIds every entry id the side's files assign; other 8-hex words stay as they are
   */
  constructor(
    root: string,
    private readonly entryIds: ReadonlySet<string>,
    private readonly times: "numbered" | "erased" = "numbered",
  ) {
    // The absolute root, then its cwd-encoded form (leading separator dropped, `/` → `-`).
    this.roots = [root, root.replace(/^[/\\]+/, "").replace(/[/\\:]/g, "-")];
  }

  private time(iso: string): string {
    return this.times === "erased" ? "<t>" : this.instants.of(iso);
  }

  /** `text` with every root, id, timestamp and duration replaced. */
  text(text: string): string {
    let out = text;
    for (const root of this.roots) out = out.split(root).join("<root>");
    return out.replace(TOKENS, (match, ...rest) => {
      const groups = rest[rest.length - 1] as Record<string, string | undefined>;
      if (groups.uuid) return this.sessions.of(groups.uuid);
      if (groups.iso) return this.time(groups.iso);
      if (groups.fileTs) return this.time(fileTsToIso(groups.fileTs));
      if (groups.ms) return `"timestamp":"${this.time(new Date(Number(groups.ms)).toISOString())}"`;
      if (groups.duration) return `"durationMs":0`;
      if (groups.hex && this.entryIds.has(groups.hex)) return this.ids.of(groups.hex);
      return match;
    });
  }
}

/** The `id`s of the non-header records of JSONL text (unparseable lines are skipped). */
export function entryIdsOf(text: string): string[] {
  const ids: string[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const record = JSON.parse(line) as { type?: unknown; id?: unknown };
      if (record.type !== "session" && typeof record.id === "string") ids.push(record.id);
    } catch {
      // A torn or foreign line: it is compared as text, its id (if any) is not collected.
    }
  }
  return ids;
}
