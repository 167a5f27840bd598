/**
 * One pass over a text for many literals at once: the literals become one regular expression
 * (case-insensitive when some literal is) shaped as a trie (`g(?:h(?:p_|o_)|lpat-)`), so the
 * engine tries one branch per position instead of every literal, and each hit names the
 * literal and whether its case matters. A case-sensitive literal found in another case (`msg.`
 * for SendGrid's `SG.`) is no hit; the scan goes on from the next position so no overlapping
 * literal is missed.
 *
 * A case-insensitive scan builds its trie from lower-cased literals, so two literals that
 * differ only in case share one branch: a match is then the longest literal (in any case)
 * starting at its place, and every other literal starting there is a prefix of it. With a
 * branch per spelling, the engine would stop at the first branch that matched (`A` for the
 * literals `A` and `aa` in the text `aa`), and the longer literal would never be reported.
 */

/** One literal to look for, and what finding it means. */
export interface ScanLiteral<T> {
  readonly text: string;
  /** Compare lower-cased (the source regex ignores case). */
  readonly ignoreCase: boolean;
  /**
   * The source regex folds case the Unicode way (flags `i` and `u`: `ſ` matches `s`); the scan
   * then does too, at about twice the cost, so only when some literal needs it.
   */
  readonly unicode?: boolean;
  readonly tag: T;
}

interface Entry<T> {
  /** The part of the literal that is looked for (see {@link gateOf}). */
  readonly text: string;
  readonly ignoreCase: boolean;
  readonly tag: T;
}

// Syntax characters only: under the `u` flag any other escape (`\-`) is an error.
const SPECIAL = /[.*+?^${}()|[\]\\/]/g;
/** `s` as a regex matching itself (valid with and without the `u` flag). */
export const escapeRegex = (s: string): string => s.replace(SPECIAL, "\\$&");

interface TrieNode {
  readonly children: Map<string, TrieNode>;
  end: boolean;
}

/** The trie of `words` as a regex source (alternatives in insertion order). */
export function trieSource(words: readonly string[]): string {
  const root: TrieNode = { children: new Map(), end: false };
  for (const word of words) {
    let node = root;
    for (const ch of word) {
      let next = node.children.get(ch);
      if (next === undefined) {
        next = { children: new Map(), end: false };
        node.children.set(ch, next);
      }
      node = next;
    }
    node.end = true;
  }
  const emit = (node: TrieNode): string => {
    const alternatives = [...node.children].map(([ch, child]) => escapeRegex(ch) + emit(child));
    if (alternatives.length === 0) return "";
    const body = alternatives.length === 1 ? alternatives[0] : `(?:${alternatives.join("|")})`;
    // A word ending here may be a prefix of a longer one: the longer is tried first, and the
    // shorter still matches when it fails.
    return node.end ? `(?:${body})?` : (body as string);
  };
  return emit(root);
}

/** How often a character occurs in the text to be scanned (any scale). */
export type CharFrequency = (ch: string) => number;

/** Character counts of `sample`, as a {@link CharFrequency}. */
export function charFrequency(sample: string): CharFrequency {
  const counts = new Map<string, number>();
  for (let i = 0; i < sample.length; i++) {
    const ch = sample[i] as string;
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  return (ch) => counts.get(ch) ?? 0;
}

/** The shortest part of a literal looked for, when the literal is longer. */
const MIN_GATE = 3;

/**
 * The part of `text` to look for: its suffix from the character that is rarest in the text to
 * be scanned (among those leaving at least {@link MIN_GATE} characters). A literal occurs only
 * where its suffix does, so the suffix is as good a gate, and the engine spends its time at the
 * positions holding one of the gates' first characters: rare ones make the scan several times
 * faster than common ones (`_`, `-`, lower-case letters).
 */
function gateOf(text: string, ignoreCase: boolean, frequency: CharFrequency | undefined): string {
  if (frequency === undefined || text.length <= MIN_GATE) return text;
  const weight = (ch: string) =>
    ignoreCase ? frequency(ch.toLowerCase()) + frequency(ch.toUpperCase()) : frequency(ch);
  let best = 0;
  let bestWeight = Number.POSITIVE_INFINITY;
  for (let i = 0; i + MIN_GATE <= text.length; i++) {
    const w = weight(text[i] as string);
    if (w < bestWeight) {
      best = i;
      bestWeight = w;
    }
  }
  return text.slice(best);
}

/**
 * The word a case-insensitive trie holds for `gate`: its lower-case spelling, so spellings that
 * differ only in case share a branch — unless lower-casing changes what the regex matches
 * (`İ` lower-cases to two characters), in which case the gate as it is.
 */
function trieWord(gate: string, lower: string, flags: string): string {
  if (lower === gate) return lower;
  const whole = new RegExp(`^${escapeRegex(lower)}$`, flags.replace("g", ""));
  return whole.test(gate) ? lower : gate;
}

/** Finds which of a fixed set of literals occur in a text. */
export class LiteralScanner<T> {
  private readonly regex: RegExp | undefined;
  private readonly byLower = new Map<string, Entry<T>[]>();
  private readonly folded = new Map<string, Entry<T>[]>();
  private shortest = Number.POSITIVE_INFINITY;
  private longest = 0;
  /** The scan folds case the Unicode way (its regex has the `u` flag). */
  private readonly unicode: boolean;

  /**
   * `frequency` (of characters in the texts to come) lets the scanner look for the rarest part
   * of each literal; without it, whole literals are looked for.
   */
  constructor(literals: readonly ScanLiteral<T>[], frequency?: CharFrequency) {
    // Case-insensitive only if some literal is, Unicode only if some literal's regex folds
    // that way: each costs speed, and without them the scan is as exact as its sources.
    const ignoreCase = literals.some((l) => l.ignoreCase);
    this.unicode = literals.some((l) => l.ignoreCase && l.unicode);
    const flags = `g${ignoreCase ? "i" : ""}${this.unicode ? "u" : ""}`;
    const words = new Set<string>();
    for (const l of literals) {
      const gate = gateOf(l.text, l.ignoreCase, frequency);
      const lower = gate.toLowerCase();
      const list = this.byLower.get(lower) ?? [];
      list.push({ text: gate, ignoreCase: l.ignoreCase, tag: l.tag });
      this.byLower.set(lower, list);
      if (gate.length > 0) words.add(ignoreCase ? trieWord(gate, lower, flags) : gate);
      this.shortest = Math.min(this.shortest, Math.max(gate.length, 1));
      this.longest = Math.max(this.longest, gate.length);
    }
    this.regex = words.size === 0 ? undefined : new RegExp(trieSource([...words]), flags);
  }

  /** Whether the scanner has nothing to look for. */
  get empty(): boolean {
    return this.regex === undefined;
  }

  /**
   * Calls `onHit` with the tag of every literal occurrence (case rules applied); stops early
   * when `onHit` returns true. Returns whether any hit was reported.
   */
  scan(text: string, onHit: (tag: T) => boolean | undefined): boolean {
    const regex = this.regex;
    if (regex === undefined) return false;
    regex.lastIndex = 0;
    let any = false;
    for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
      // The match is the longest literal starting here; every shorter one that also starts
      // here is a prefix of it, so each prefix that is a literal is a hit too.
      const found = m[0];
      for (let len = Math.min(found.length, this.longest); len >= this.shortest; len--) {
        const part = len === found.length ? found : found.slice(0, len);
        for (const e of this.entriesOf(part)) {
          if (e.ignoreCase || e.text === part) {
            any = true;
            if (onHit(e.tag) === true) return true;
          }
        }
      }
      // Go on from the next position: literals starting there are not seen from here.
      regex.lastIndex = m.index + 1;
    }
    return any;
  }

  /**
   * The entries a hit stands for. Lower-casing finds them, except where Unicode case folding
   * (which the `u` flag uses) differs from it (`ſ` folds to `s`): those few are compared by a
   * folding regex, once per spelling.
   */
  private entriesOf(found: string): readonly Entry<T>[] {
    const direct = this.byLower.get(found.toLowerCase());
    if (direct !== undefined || !this.unicode) return direct ?? [];
    let folded = this.folded.get(found);
    if (folded === undefined) {
      folded = [];
      for (const [lower, entries] of this.byLower) {
        if (new RegExp(`^${escapeRegex(lower)}$`, "iu").test(found)) folded.push(...entries);
      }
      this.folded.set(found, folded);
    }
    return folded;
  }

  /** Whether `text` holds any literal (stops at the first). */
  test(text: string): boolean {
    return this.scan(text, () => true);
  }

  /** The tags of every literal `text` holds, without repeats. */
  tags(text: string): Set<T> {
    const out = new Set<T>();
    this.scan(text, (tag) => {
      out.add(tag);
      return undefined;
    });
    return out;
  }
}
