/**
 * The redaction config file: the user's rules and choices in JSON, checked with io-ts so a bad
 * file is refused with the place and reason, never half-applied.
 *
 * ```json
 * {
 *   "patterns": [{ "name": "employee-id", "regex": "corp-[0-9]{6}", "flags": "i" }, "acme_[a-z0-9]{32}=acme-key"],
 *   "allow": ["AKIAIOSFODNN7EXAMPLE"],
 *   "entropy": { "minLength": 24, "threshold": 4.0 },
 *   "paths": true
 * }
 * ```
 */
import { readFileSync } from "node:fs";
import { isLeft } from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { RedactOptions } from "./redact/redact-session.js";
import { parsePatternArg, type UserPattern } from "./rules/pattern-rules.js";

/**
 * `codec` refusing objects with members other than `keys`: a misspelt setting (`"pattern"`,
 * `"flag"`) must be an error, not a rule silently left out.
 */
function closed<C extends t.Mixed>(codec: C, keys: readonly string[]): C {
  const known = new Set(keys);
  return new t.Type(
    codec.name,
    codec.is,
    (u, c) => {
      if (typeof u === "object" && u !== null && !Array.isArray(u)) {
        const extra = Object.keys(u).find((k) => !known.has(k));
        if (extra !== undefined) {
          return t.failure(u, c, `unknown setting "${extra}" (expected ${keys.join(", ")})`);
        }
      }
      return codec.validate(u, c);
    },
    codec.encode,
  ) as unknown as C;
}

const PatternObject = closed(
  t.intersection([t.type({ name: t.string, regex: t.string }), t.partial({ flags: t.string })]),
  ["name", "regex", "flags"],
);

const EntropySettings = closed(t.partial({ minLength: t.number, threshold: t.number }), [
  "minLength",
  "threshold",
]);

/** The config file's shape. */
const ConfigCodec = closed(
  t.partial({
    patterns: t.array(t.union([t.string, PatternObject])),
    allow: t.array(t.string),
    entropy: t.union([t.boolean, EntropySettings]),
    paths: t.boolean,
  }),
  ["patterns", "allow", "entropy", "paths"],
);

/** A config file as written. */
export interface RedactionConfig {
  /** `{ name, regex, flags? }` objects or `REGEX=name` strings, as `--pattern` takes them. */
  readonly patterns?: readonly (string | { name: string; regex: string; flags?: string })[];
  /** Strings never redacted. */
  readonly allow?: readonly string[];
  /** The entropy detector: `true`, or its settings. */
  readonly entropy?: boolean | { minLength?: number; threshold?: number };
  /** Redact the working and home directories. */
  readonly paths?: boolean;
}

// The codec decodes exactly the documented shape (the compiler holds them together).
const _sameShape: (c: t.TypeOf<typeof ConfigCodec>) => RedactionConfig = (c) => c;

/** The first problem io-ts found, as `at patterns.0.regex: expected string, got 1`. */
function firstProblem(errors: t.Errors): string {
  // A union reports each branch's failure: a named one (an unknown setting) says most.
  const e = errors.find((x) => x.message !== undefined) ?? errors[0];
  if (e === undefined) return "invalid";
  // Keys under a union are its branch numbers, not places in the file.
  const path = e.context
    .filter((c, i) => c.key !== "" && !(e.context[i - 1]?.type instanceof t.UnionType))
    .map((c) => c.key)
    .join(".");
  const where = path === "" ? "top level" : `at ${path}`;
  if (e.message !== undefined) return `${where}: ${e.message}`;
  const expected = e.context[e.context.length - 1]?.type.name ?? "a valid value";
  return `${where}: expected ${expected}, got ${JSON.stringify(e.value)}`;
}

/** Options from a config file's text; throws one line naming `file` and the problem. */
export function parseRedactionConfig(text: string, file: string): RedactOptions {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON: ${(error as Error).message}`);
  }
  const decoded = ConfigCodec.decode(json);
  if (isLeft(decoded)) throw new Error(`${file}: ${firstProblem(decoded.left)}`);
  const config = decoded.right;
  const patterns: UserPattern[] = (config.patterns ?? []).map((p) => {
    try {
      if (typeof p === "string") return parsePatternArg(p);
      return { name: p.name, regex: new RegExp(p.regex, p.flags ?? "") };
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}`);
    }
  });
  return {
    patterns,
    allow: config.allow ?? [],
    entropy: config.entropy ?? false,
    paths: config.paths ?? false,
  };
}

/** Reads and parses a config file; throws one line when it cannot. */
export function readRedactionConfig(file: string): RedactOptions {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return parseRedactionConfig(text, file);
}
