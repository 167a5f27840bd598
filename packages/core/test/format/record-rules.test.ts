import { describe, expect, it } from "vitest";
import { isCurrentHeader, recordKind, recordProblem } from "../../src/format/record-rules.js";

describe("record rules (SPEC §2.2–§2.3, W5)", () => {
  it("reads only a numeric version ≥ 3 as current", () => {
    for (const version of [3, 4, 3.5]) expect(isCurrentHeader({ version })).toBe(true);
    for (const version of [undefined, null, 1, 2, 2.9, "3", "abc", Number.NaN]) {
      expect(isCurrentHeader({ version })).toBe(false);
    }
  });

  it("takes the first session record as the header, a later one as extra", () => {
    expect(recordKind({ type: "session", id: "s" }, false)).toBe("header");
    expect(recordKind({ type: "session" }, false)).toBe("header");
    expect(recordKind({ type: "session", id: "s" }, true)).toBe("extra-header");
  });

  it("keeps records with a string id as entries, and tells the others apart", () => {
    expect(recordKind({ type: "message", id: "a" }, true)).toBe("entry");
    expect(recordKind({ type: "message", id: "a" }, false)).toBe("entry");
    expect(recordKind({ type: "message", id: 7 }, true)).toBe("missing-id");
    expect(recordKind({ type: "message" }, true)).toBe("missing-id");
  });

  it("words the problems of records kept in the file but not in the tree", () => {
    expect(recordProblem("extra-header", { type: "session" }, 4)).toEqual({
      kind: "extra-header",
      line: 4,
      message: "a second session header; it is kept in the file but not used",
    });
    expect(recordProblem("missing-id", { type: "label" }, undefined)).toEqual({
      kind: "invalid-entry",
      line: undefined,
      message: 'entry of type "label" has no string id; it is kept in the file but not in the tree',
    });
  });
});
