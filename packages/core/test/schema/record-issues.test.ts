/**
 * The field-level check `check` runs on every record ({@link recordIssues}): wrong types are
 * named by path and value, and nothing the format leaves open (unknown entry types, fields,
 * roles, blocks) is an issue.
 */

import { formatSchemaIssue, recordIssues } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { base, ENTRIES, MESSAGES, usage } from "./fixtures.js";

const lines = (record: unknown) => recordIssues(record).map(formatSchemaIssue);

describe("recordIssues names the field and the value", () => {
  it('reads message.usage.input: expected number, got "400"', () => {
    const entry = {
      ...ENTRIES.message,
      message: { ...MESSAGES.assistant, usage: { ...usage, input: "400" } },
    };
    const [issue, ...rest] = recordIssues(entry);
    expect(rest).toEqual([]);
    expect(issue).toEqual({
      path: "message.usage.input",
      expected: "number",
      actual: "400",
      message: 'expected number, got "400"',
    });
    // `check` puts the line in front of exactly this text.
    expect(`line 12: ${formatSchemaIssue(issue as NonNullable<typeof issue>)}`).toBe(
      'line 12: message.usage.input: expected number, got "400"',
    );
  });

  it("names nested blocks by index, missing fields as missing, other values by type", () => {
    const entry = {
      ...ENTRIES.message,
      message: { role: "user", content: [{ type: "text", text: 5 }] },
    };
    expect(lines(entry)).toEqual([
      "message.content[0].text: expected string, got number 5",
      "message.timestamp: missing; expected number",
    ]);
    expect(lines({ ...ENTRIES.label, label: false })).toEqual([
      "label: expected string | null, got boolean false",
    ]);
  });

  it("checks the header when the record is one", () => {
    const header = { type: "session", version: "3", id: "s", timestamp: "t", cwd: "/" };
    expect(lines(header)).toEqual(['version: expected number, got "3"']);
  });

  it("finds nothing in every valid sample", () => {
    for (const entry of Object.values(ENTRIES)) expect(lines(entry)).toEqual([]);
  });
});

describe("what the format leaves open is not an issue (SPEC §2.6)", () => {
  it("accepts an unknown entry type with fields of its own", () => {
    expect(lines({ type: "bookmark_v9", ...base, payload: { deep: [1] }, n: "x" })).toEqual([]);
  });

  it("still checks the common fields of an unknown entry type", () => {
    expect(lines({ type: "bookmark_v9", ...base, parentId: 7 })).toEqual([
      "parentId: expected string | null, got number 7",
    ]);
  });

  it("accepts unknown fields, unknown roles and unknown blocks", () => {
    expect(lines({ ...ENTRIES.model_change, future: { any: true } })).toEqual([]);
    expect(lines({ ...ENTRIES.message, message: { role: "hologram", beams: 3 } })).toEqual([]);
    const user = { ...MESSAGES.user, content: [{ type: "video", frames: [] }] };
    expect(lines({ ...ENTRIES.message, message: user })).toEqual([]);
  });
});
