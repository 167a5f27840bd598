/**
 * The user's own rules: regular expressions with a name (`--pattern 'corp-[0-9]{6}=employee-id'`,
 * or a config file). A match is the secret; when the regex has a group named `secret` (or else
 * a first group), only that group is, so `password=(\S+)` keeps `password=` and redacts the rest.
 */
import { requiredLiterals } from "../literals/required-literals.js";
import { type Detector, type Finding, isRawSafe, MIN_LITERAL, ruleNameOf } from "./detector.js";

/** A user rule: a name for its placeholders and a regex. */
export interface UserPattern {
  /** Rule name (`[REDACTED:<name>#n]`); sanitised to lower case, digits, `.`, `_`, `-`. */
  readonly name: string;
  readonly regex: RegExp;
}

/** A detector for one user pattern. */
export function patternDetector(pattern: UserPattern): Detector {
  // `g` to find every match, `d` for the secret group's position.
  const flags = [...new Set(`${pattern.regex.flags}gd`)].filter((f) => f !== "y").join("");
  const regex = new RegExp(pattern.regex.source, flags);
  const rule = ruleNameOf(pattern.name);
  const literals = requiredLiterals(regex, MIN_LITERAL, isRawSafe);
  return {
    source: "pattern",
    literals: literals === undefined ? undefined : [literals],
    detect: async (texts) =>
      texts.map((text) => {
        const out: Finding[] = [];
        for (const m of text.matchAll(regex)) {
          const span = m.indices?.groups?.secret ?? m.indices?.[1] ?? m.indices?.[0];
          if (span !== undefined && span[1] > span[0])
            out.push({ start: span[0], end: span[1], rule });
        }
        return out;
      }),
  };
}

/**
 * Parses `--pattern` values: `REGEX=name` (the name is what follows the last `=`, when it is a
 * valid rule name) or just `REGEX` (named `pattern`). Throws a one-line reason on a bad regex.
 */
export function parsePatternArg(arg: string, flags = ""): UserPattern {
  const eq = arg.lastIndexOf("=");
  const tail = eq > 0 ? arg.slice(eq + 1) : "";
  const named = /^[A-Za-z0-9._-]+$/.test(tail);
  const source = named ? arg.slice(0, eq) : arg;
  try {
    return { name: named ? tail : "pattern", regex: new RegExp(source, flags) };
  } catch (error) {
    throw new Error(`bad --pattern ${JSON.stringify(arg)}: ${(error as Error).message}`);
  }
}
