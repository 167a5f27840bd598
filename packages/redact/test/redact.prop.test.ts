/**
 * SPEC X1–X3 over generated sessions: fake secrets of every supported kind planted in every
 * free-text field (and in JSON carried by tool results) are gone from the output; every line
 * equals the input line with exactly the planted secrets replaced by placeholders (so ids,
 * parents, types, labels, usage, key order and every other byte stay); one secret, one
 * placeholder; the report names rules and entries, never a secret.
 */
import { type RedactionResult, redactSession } from "@pi-sessions/redact";
import { fcOptions } from "@pi-sessions/test-utils";
import { type PlantedSecret, plant, plantedSecretArb } from "@pi-sessions/test-utils/secrets";
import { sessionLogArb, sessionToJsonl } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const PLACEHOLDER = /^\[REDACTED:[a-z0-9._-]+#[1-9][0-9]*\]$/;

/** Every string in `value` (keys too) with `replace` applied, key order kept. */
function mapStrings(value: unknown, replace: (s: string) => string): unknown {
  if (typeof value === "string") return replace(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, replace));
  if (value === null || typeof value !== "object") return value;
  // No prototype: a member named `__proto__` (JSON.parse makes it an own member) must stay one
  // member here too, not become the object's prototype and vanish from the expected line.
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(value)) out[replace(k)] = mapStrings(v, replace);
  return out;
}

/** How a planted secret can be spelled in a decoded string: as it is, or JSON-escaped (inside
 * JSON carried as text, when that text could not be parsed back: a PEM key's breaks as `\n`). */
function spellings(secret: string): string[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  return escaped === secret ? [secret] : [secret, escaped];
}

/** `s` with each planted secret (in each spelling) replaced by the placeholder it was given. */
function expectedString(s: string, secrets: readonly PlantedSecret[], r: RedactionResult): string {
  let out = s;
  // Longest first: no planted secret is part of another, but one may repeat.
  for (const p of [...secrets].sort((a, b) => b.secret.length - a.secret.length)) {
    for (const form of spellings(p.secret)) {
      // A spelling found as it is has its own placeholder; an escaped one inside JSON that
      // was read back has the placeholder of the secret it decodes to.
      const own = r.redactText(form);
      out = out.split(form).join(own !== form ? own : r.redactText(p.secret));
    }
  }
  return out;
}

const caseArb = fc.record({
  log: sessionLogArb({ maxEntries: 12, unknownTypes: true }),
  secrets: fc.array(plantedSecretArb, { minLength: 1, maxLength: 4 }),
  picks: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
  json: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
});

describe("redactSession over generated sessions", () => {
  it("removes every planted secret and changes nothing else, byte for byte (numRuns 150)", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ log, secrets, picks, json }) => {
        const { entries, planted } = plant(log.entries, secrets, picks, json);
        fc.pre(planted.length > 0);
        const input = sessionToJsonl(log.header, entries);
        const r = await redactSession(input);
        const used = planted.map((p) => p.secret);
        for (const p of used) {
          // In no spelling in the file, and each spelling that occurred has a placeholder.
          const forms = spellings(p.secret);
          for (const form of forms) expect(r.text.includes(form)).toBe(false);
          const placeholders = forms.map((f) => r.redactText(f)).filter((x) => PLACEHOLDER.test(x));
          expect(placeholders.length).toBeGreaterThan(0);
          for (const ph of placeholders) expect(ph).toContain(`[REDACTED:${p.rule}#`);
        }
        // One secret, one placeholder; two secrets, two placeholders.
        const distinct = new Set(used.map((p) => p.secret));
        const raw = [...distinct].map((s) => r.redactText(s)).filter((x) => PLACEHOLDER.test(x));
        expect(new Set(raw).size).toBe(raw.length);
        // Every line is the input line with exactly the planted secrets replaced.
        const inLines = input.split("\n");
        const outLines = r.text.split("\n");
        expect(outLines.length).toBe(inLines.length);
        inLines.forEach((line, i) => {
          if (line === "") {
            expect(outLines[i]).toBe("");
            return;
          }
          const expected = JSON.stringify(
            mapStrings(JSON.parse(line), (s) => expectedString(s, used, r)),
          );
          expect(outLines[i]).toBe(expected);
        });
        // The report: every planted rule, its entries, and no secret anywhere in it.
        const reportText = JSON.stringify(r.report);
        for (const p of used) expect(reportText.includes(p.secret)).toBe(false);
        for (const { entry, secret } of planted) {
          const rule = r.report.rules.find((x) => x.rule === secret.rule);
          expect(rule?.entryIds).toContain(entries[entry]?.id);
        }
        expect(r.report.secrets).toBeGreaterThanOrEqual(distinct.size);
      }),
      fcOptions(150),
    );
  });

  it("a session without secrets comes back as the very same text (numRuns 100)", async () => {
    await fc.assert(
      fc.asyncProperty(
        sessionLogArb({ maxEntries: 20, unknownTypes: true, unknownFields: true }),
        async (log) => {
          const r = await redactSession(log.jsonl);
          expect(r.report.secrets).toBe(0);
          expect(r.text).toBe(log.jsonl);
        },
      ),
      fcOptions(100),
    );
  });
});
