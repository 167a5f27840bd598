/**
 * One pass over a text for many literals at once: the literals become one case-insensitive
 * regular expression shaped as a trie (`g(?:h(?:p_|o_)|lpat-)`), so the engine tries one branch
 * per position instead of every literal, and each hit names the literal and whether its case
 * matters. A case-sensitive literal found in another case (`msg.` for SendGrid's `SG.`) is no
 * hit; the scan goes on from the next position so no overlapping literal is missed.
 */

/** One literal to look for, and what finding it means. */
export interface ScanLiteral<T> {
  readonly text: string;
  /** Compare lower-cased (the source regex ignores case). */
  readonly ignoreCase: boolean;
  readonly tag: T;
}

interface Entry<T> {
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

/** Finds which of a fixed set of literals occur in a text. */
export class LiteralScanner<T> {
  private readonly regex: RegExp | undefined;
  private readonly byLower = new Map<string, Entry<T>[]>();
  private readonly folded = new Map<string, Entry<T>[]>();

  constructor(literals: readonly ScanLiteral<T>[]) {
    for (const l of literals) {
      const lower = l.text.toLowerCase();
      const list = this.byLower.get(lower) ?? [];
      list.push({ text: l.text, ignoreCase: l.ignoreCase, tag: l.tag });
      this.byLower.set(lower, list);
    }
    const words = [...this.byLower.keys()].filter((w) => w.length > 0);
    this.regex = words.length === 0 ? undefined : new RegExp(trieSource(words), "giu");
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
      for (const e of this.entriesOf(m[0])) {
        if (e.ignoreCase || e.text === m[0]) {
          any = true;
          if (onHit(e.tag) === true) return true;
        }
      }
      // Go on from the next position: a case-mismatched or shorter hit may hide another.
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
    if (direct !== undefined) return direct;
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
