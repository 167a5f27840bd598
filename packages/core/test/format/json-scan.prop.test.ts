import { type LineHead, newLineHead, scanObjectLine } from "@pi-sessions/core/internal";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const bytes = (text: string) => Buffer.from(text, "utf8");

/** The scan of a whole text as one line. */
function scan(text: string): { ok: boolean; head: LineHead; buf: Buffer } {
  const buf = bytes(text);
  const head = newLineHead();
  return { ok: scanObjectLine(buf, 0, buf.length, head), head, buf };
}

const spanText = (buf: Buffer, start: number, end: number) => buf.toString("utf8", start, end);

/** What JSON.parse makes of a line: the object, or why not. */
function parsed(text: string): Record<string, unknown> | "not-an-object" | "invalid" {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "invalid";
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : "not-an-object";
}

/**
 * The soundness law: a line the scan accepts is an object JSON.parse accepts, and the spans it
 * reports hold exactly the values JSON.parse gives (absent keys absent).
 */
function checkSound(text: string): boolean {
  const { ok, head, buf } = scan(text);
  if (!ok) return true;
  const record = parsed(buf.toString("utf8"));
  if (typeof record !== "object") return false;
  const own = (k: string) => Object.hasOwn(record, k);
  const type = head.typeStart < 0 ? undefined : spanText(buf, head.typeStart, head.typeEnd);
  const id = head.idStart < 0 ? undefined : spanText(buf, head.idStart, head.idEnd);
  if (own("type") !== (type !== undefined) || record.type !== type) return false;
  if (own("id") !== (id !== undefined) || record.id !== id) return false;
  if (head.roleStart >= 0) {
    const message = record.message as Record<string, unknown> | null;
    if (typeof message !== "object" || message === null || Array.isArray(message)) return false;
    if (message.role !== spanText(buf, head.roleStart, head.roleEnd)) return false;
  }
  if (head.parentKind === 0) return !own("parentId");
  if (head.parentKind === 1) return record.parentId === null;
  return record.parentId === spanText(buf, head.parentStart, head.parentEnd);
}

/** Whether JSON.stringify writes `s` without an escape: no quote, backslash or control char. */
const unescaped = (s: string): boolean =>
  ![...s].some((c) => c === '"' || c === "\\" || c.charCodeAt(0) < 0x20);

/** Strings JSON.stringify writes without an escape. */
const plainString = fc.string({ unit: "grapheme" }).filter(unescaped);

/** Entry-like objects: the structural fields (sometimes) and any JSON beside them (top-level keys
 * without escapes, as pi writes them: an escaped key is left to JSON.parse). */
const entryLike = fc
  .record(
    {
      type: plainString,
      id: plainString,
      parentId: fc.oneof(plainString, fc.constant(null)),
      body: fc.oneof(
        fc.jsonValue(),
        fc
          .tuple(plainString, fc.dictionary(plainString, fc.jsonValue(), { maxKeys: 3 }))
          .map(([role, rest]) => ({ role, ...rest })),
        // A repeated role: JSON.parse keeps the last, the scan must not claim the first.
        plainString.map((role) =>
          JSON.parse(`{"role":"${role.replace(/"/g, "")}x","role":"${role}"}`.replace(/\\/g, "")),
        ),
      ),
      extra: fc.dictionary(plainString, fc.jsonValue(), { maxKeys: 3 }),
    },
    { requiredKeys: [] },
  )
  .map(({ body, extra, ...head }) => ({ ...extra, ...head, message: body }));

/** Damage a line: cut it, or put a byte anywhere. */
const damaged = fc
  .tuple(entryLike, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean())
  .map(([value, at, byte, cut]) => {
    const text = JSON.stringify(value);
    const i = at % (text.length + 1);
    return cut ? text.slice(0, i) : text.slice(0, i) + String.fromCharCode(byte) + text.slice(i);
  });

describe("scanObjectLine: the load's byte-level check of a line (SPEC §2.1)", () => {
  it("accepts only what JSON.parse accepts, with the same type, id and parentId (numRuns 600)", () => {
    const line = fc.oneof(
      entryLike.map((v) => JSON.stringify(v)),
      entryLike.map((v) => JSON.stringify(v, null, 1).replace(/\n/g, " ")),
      damaged,
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string(),
    );
    fc.assert(fc.property(line, checkSound), fcOptions(600));
  });

  it("accepts every object JSON.stringify writes with plain structural fields (numRuns 400)", () => {
    fc.assert(
      fc.property(entryLike, (value) => {
        const { ok, head } = scan(JSON.stringify(value));
        const message = value.message as { role?: unknown } | null;
        const plainRole =
          typeof message === "object" &&
          message !== null &&
          typeof message.role === "string" &&
          unescaped(message.role);
        return ok && (!plainRole || head.roleStart >= 0);
      }),
      fcOptions(400),
    );
  });

  it("finds the message's role only when it is one plain string", () => {
    const roleOf = (text: string) => {
      const { ok, head, buf } = scan(text);
      return ok && head.roleStart >= 0 ? spanText(buf, head.roleStart, head.roleEnd) : undefined;
    };
    expect(roleOf('{"id":"a","message":{"role":"assistant","content":[]}}')).toBe("assistant");
    expect(roleOf('{"id":"a","message":{"content":{"role":"x"},"role":"user"}}')).toBe("user");
    expect(roleOf('{"id":"a","message":{"role":"user","role":"system"}}')).toBeUndefined();
    expect(roleOf('{"id":"a","message":{"role":"us\\u0065r"}}')).toBeUndefined();
    expect(roleOf('{"id":"a","message":{"role":7}}')).toBeUndefined();
    expect(roleOf('{"id":"a","message":{"role":{"x":1}}}')).toBeUndefined();
    expect(roleOf('{"id":"a","data":{"role":"user"}}')).toBeUndefined();
    expect(scan('{"id":"a","message":{"role":"a"},"message":{"role":"b"}}').ok).toBe(false);
  });

  it("follows JSON's grammar where JSON.parse is strict", () => {
    const cases: [string, boolean][] = [
      ["{}", true],
      ['  {"a":1}\r', true],
      ['{"a":[1,-0.5e+3,true,false,null,{"b":[]}]}', true],
      ['{"a":"\\u00e9\\n\\"x"}', true],
      ['{"a":01}', false],
      ['{"a":1.}', false],
      ['{"a":.5}', false],
      ['{"a":-}', false],
      ['{"a":1e}', false],
      ['{"a":+1}', false],
      ['{"a":tru}', false],
      ['{"a":1,}', false],
      ['{"a":[1,]}', false],
      ['{"a":1}x', false],
      ["{}{}", false],
      ['{"a":"\t"}', false],
      ['{"a":"\\x"}', false],
      ['{"a":"\\u12g4"}', false],
      ['{"a" 1}', false],
      ["[1]", false],
      ['"s"', false],
      ["\ufeff{}", false],
      [`{"a":{"b":${"[".repeat(70)}1${"]".repeat(70)}}}`, true],
    ];
    for (const [text, ok] of cases) {
      expect(scan(text).ok, text).toBe(ok);
      expect(ok, text).toBe(typeof parsed(text) === "object");
    }
  });

  it("leaves lines with escaped, repeated or non-string structural fields to JSON.parse", () => {
    for (const text of [
      '{"type":"mes\\u0073age","id":"a"}',
      '{"id":"a","id":"b"}',
      '{"type":"message","type":"label"}',
      '{"parentId":null,"parentId":"x"}',
      '{"id":7}',
      '{"parentId":1}',
      '{"type":null}',
      '{"i\\u0064":"a"}',
    ]) {
      expect(typeof parsed(text), text).toBe("object");
      expect(scan(text).ok, text).toBe(false);
    }
    const nested = scan('{"message":{"id":"inner","type":7},"id":"outer"}');
    expect(nested.ok).toBe(true);
    expect(spanText(nested.buf, nested.head.idStart, nested.head.idEnd)).toBe("outer");
    expect(nested.head.typeStart).toBe(-1);
  });
});
