/**
 * The literals a regular expression cannot match without: for a regex R, a set of strings L such
 * that every match of R contains some member of L. A scanner that finds none of L in a text knows
 * R finds nothing there, without running R. This is how the redactor skips the rule set on the
 * lines and strings that cannot hold a secret (the same idea as RE2's prefilter and ripgrep's
 * literal extraction), derived from each rule's own regexes rather than written by hand.
 *
 * The analysis walks the regex's syntax tree (`@eslint-community/regexpp`):
 * - a node is *exact* when the strings it can match form a small finite set (a character, a
 *   small class, a group of such alternatives, a bounded repetition of them); consecutive exact
 *   nodes concatenate (`(?:ghp|gho)_` → `ghp_`, `gho_`);
 * - a sequence requires the best of its exact runs and of its elements' own requirements;
 * - alternatives require the union of what each requires (one of them matched);
 * - a repetition with a minimum of at least one requires what its element requires; optional
 *   parts, lookarounds, backreferences and large classes require nothing.
 * Characters for which `isSafe` is false (those JSON escapes) end a run, so every literal can
 * be looked for in raw JSON text as well as in decoded strings.
 */
import { RegExpParser } from "@eslint-community/regexpp";
import type { Alternative, Element, Node, Pattern } from "@eslint-community/regexpp/ast";

/** A set of strings one of which every match contains, or `undefined` when nothing is known. */
type Required = readonly string[] | undefined;

/** What one node can match: every string (when few and finite) and what it requires. */
interface Info {
  readonly exact: readonly string[] | undefined;
  readonly required: Required;
}

/** Cross products larger than this stop being tracked as exact sets. */
const MAX_EXACT = 64;
/** Classes with more members than this are not expanded. */
const MAX_CLASS = 8;

const NOTHING: Info = { exact: undefined, required: undefined };
const EMPTY: Info = { exact: [""], required: undefined };

/** The shortest member's length (0 for no set): how selective a requirement is. */
function strength(set: Required): number {
  if (set === undefined || set.length === 0) return 0;
  let min = Number.POSITIVE_INFINITY;
  for (const s of set) min = Math.min(min, s.length);
  return min;
}

/** The more selective of two requirements (longer shortest member, then fewer members). */
function better(a: Required, b: Required): Required {
  const sa = strength(a);
  const sb = strength(b);
  if (sa !== sb) return sa > sb ? a : b;
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.length <= b.length ? a : b;
}

function cross(a: readonly string[], b: readonly string[]): string[] | undefined {
  if (a.length * b.length > MAX_EXACT) return undefined;
  const out: string[] = [];
  for (const x of a) for (const y of b) out.push(x + y);
  return [...new Set(out)];
}

class Analyzer {
  constructor(
    private readonly ignoreCase: boolean,
    private readonly isSafe: (ch: string) => boolean,
  ) {}

  /** The exact set of one character, folded to lower case under the `i` flag. */
  private char(value: number): Info {
    const ch = String.fromCodePoint(value);
    if (!this.isSafe(ch)) return NOTHING;
    const s = this.ignoreCase ? ch.toLowerCase() : ch;
    return { exact: [s], required: [s] };
  }

  private chars(values: readonly number[]): Info {
    const set = new Set<string>();
    for (const v of values) {
      const info = this.char(v);
      if (info.exact === undefined) return NOTHING;
      for (const s of info.exact) set.add(s);
    }
    return { exact: [...set], required: [...set] };
  }

  node(node: Node): Info {
    switch (node.type) {
      case "Pattern":
      case "Group":
      case "CapturingGroup":
        return this.alternatives(node.alternatives);
      case "Alternative":
        return this.sequence(node.elements);
      case "Character":
        return this.char(node.value);
      case "CharacterClass": {
        if (node.negate || node.unicodeSets) return NOTHING;
        const values: number[] = [];
        for (const e of node.elements) {
          if (e.type === "Character") values.push(e.value);
          else if (e.type === "CharacterClassRange") {
            if (e.max.value - e.min.value >= MAX_CLASS) return NOTHING;
            for (let v = e.min.value; v <= e.max.value; v++) values.push(v);
          } else return NOTHING;
          if (values.length > MAX_CLASS) return NOTHING;
        }
        return this.chars(values);
      }
      case "Quantifier": {
        const inner = this.node(node.element);
        if (node.min === 0) return NOTHING;
        let exact: readonly string[] | undefined;
        if (inner.exact !== undefined && node.min === node.max && node.min <= 4) {
          let acc: readonly string[] | undefined = [""];
          for (let i = 0; i < node.min && acc !== undefined; i++) acc = cross(acc, inner.exact);
          exact = acc;
        }
        return { exact, required: exact ?? inner.exact ?? inner.required };
      }
      case "Assertion":
        // Zero-width: `^`, `$`, `\b`, lookarounds. They consume nothing, so a run of exact
        // characters continues across them (a match holding `a\bb` holds `ab`).
        return EMPTY;
      default:
        // Backreferences, character sets (`.`, `\d`, `\p{L}`), class strings: nothing known.
        return NOTHING;
    }
  }

  private alternatives(alternatives: readonly Alternative[]): Info {
    const infos = alternatives.map((a) => this.node(a));
    const exact = infos.every((i) => i.exact !== undefined)
      ? [...new Set(infos.flatMap((i) => i.exact as readonly string[]))]
      : undefined;
    let required: string[] | undefined = [];
    for (const info of infos) {
      const own = better(info.exact, info.required);
      if (own === undefined || strength(own) === 0) {
        required = undefined;
        break;
      }
      required.push(...own);
    }
    if (exact !== undefined && exact.length > MAX_EXACT) return { exact: undefined, required };
    return { exact, required: required === undefined ? undefined : [...new Set(required)] };
  }

  private sequence(elements: readonly Element[]): Info {
    let run: readonly string[] | undefined = [""];
    let best: Required;
    let allExact = true;
    for (const element of elements) {
      const info = this.node(element);
      if (info.exact !== undefined) {
        const next: readonly string[] | undefined = cross(run ?? [""], info.exact);
        if (next === undefined) {
          best = better(best, run);
          run = info.exact;
          allExact = false;
        } else run = next;
      } else {
        best = better(better(best, run), info.required);
        run = [""];
        allExact = false;
      }
    }
    best = better(best, run);
    return { exact: allExact ? run : undefined, required: best };
  }
}

/** How a regex's literals are to be compared. */
export interface RequiredLiterals {
  /** One of these occurs in every match; lower-cased when `ignoreCase`. */
  readonly literals: readonly string[];
  /** Whether the regex ignores case (compare lower-cased). */
  readonly ignoreCase: boolean;
  /** Whether it folds case the Unicode way (flags `u` or `v` with `i`). */
  readonly unicode: boolean;
}

/**
 * The literals every match of `regex` contains, each at least `minLength` long, built only of
 * characters `isSafe` accepts; `undefined` when the regex has no such set (it can match
 * without any selective literal), or when it cannot be parsed.
 */
export function requiredLiterals(
  regex: RegExp,
  minLength: number,
  isSafe: (ch: string) => boolean,
): RequiredLiterals | undefined {
  let pattern: Pattern;
  try {
    pattern = new RegExpParser().parsePattern(regex.source, 0, regex.source.length, {
      unicode: regex.unicode,
      unicodeSets: regex.flags.includes("v"),
    });
  } catch {
    return undefined;
  }
  const info = new Analyzer(regex.ignoreCase, isSafe).node(pattern);
  const set = better(info.exact, info.required);
  if (set === undefined || strength(set) < minLength) return undefined;
  const unicode = regex.unicode || regex.flags.includes("v");
  return { literals: set, ignoreCase: regex.ignoreCase, unicode };
}
