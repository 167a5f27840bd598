/**
 * The config file: the README's example is what it says it is, and a bad file is refused with
 * the file, the place and the reason — including a misspelt setting (regression: `"pattern"`
 * for `"patterns"` or `"flag"` for `"flags"` was dropped without a word, so the rule the user
 * wrote silently redacted nothing).
 */
import { readFileSync } from "node:fs";
import { parseRedactionConfig } from "@pi-sessions/redact";
import { describe, expect, it } from "vitest";

describe("parseRedactionConfig", () => {
  it("reads the README's example as documented", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const block = /```json\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    const options = parseRedactionConfig(block.replace(/^ {2}/gm, ""), "config.json");
    expect(options.patterns?.map((p) => [p.name, p.regex.source, p.regex.flags])).toEqual([
      ["employee-id", "corp-[0-9]{6}", "i"],
      ["acme-key", "acme_[a-z0-9]{32}", ""],
    ]);
    expect(options.allow).toEqual(["AKIAIOSFODNN7EXAMPLE"]);
    expect(options.entropy).toEqual({ minLength: 24, threshold: 4.0 });
    expect(options.paths).toBe(true);
  });

  it("refuses a misspelt setting at any level, naming it", () => {
    const cases: [string, string][] = [
      ['{"pattern": ["acme_[a-z]+"]}', 'c.json: top level: unknown setting "pattern"'],
      [
        '{"patterns": [{"name": "x", "regex": "y", "flag": "i"}]}',
        'c.json: at patterns.0: unknown setting "flag"',
      ],
      ['{"entropy": {"min": 20}}', 'c.json: at entropy: unknown setting "min"'],
    ];
    for (const [text, message] of cases) {
      expect(() => parseRedactionConfig(text, "c.json")).toThrow(message);
    }
  });

  it("refuses what is not JSON, a wrong type and a bad regex, naming the file", () => {
    expect(() => parseRedactionConfig("{", "c.json")).toThrow(/^c\.json: not JSON/);
    expect(() => parseRedactionConfig('{"paths": "yes"}', "c.json")).toThrow(
      'c.json: at paths: expected boolean, got "yes"',
    );
    expect(() => parseRedactionConfig('{"patterns": ["([a-z"]}', "c.json")).toThrow(
      /^c\.json: bad --pattern/,
    );
  });
});
