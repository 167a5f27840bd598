/**
 * `systemPrompt` reads a pi 1.6 system message whole: its prompt lives in `sections` (with an
 * empty `content`) and its tools in `toolsAdded`, which every renderer used to miss.
 */
import { getSystemMessageText, type SystemMessage } from "@earendil-works/pi-ai";
import { systemPrompt } from "@pi-sessions/core";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** The first system message of pi 1.6's `docs/session-format.md`, as pi writes it. */
const PI_DOCS_SYSTEM = JSON.parse(
  '{"role":"system","content":"","sections":{"preamble":"You are an expert coding assistant...","tools":"<tools>\\n- read: ...\\n</tools>","cwd":"/project"},"toolsAdded":[{"name":"read","description":"...","parameters":{}}],"timestamp":1733234400000}',
) as SystemMessage;

const PARAMS = fcOptions(500);

describe("systemPrompt", () => {
  it("gives a pi 1.6 system message's sections in order and its tools", () => {
    expect(systemPrompt(PI_DOCS_SYSTEM)).toEqual({
      text: "You are an expert coding assistant...\n\n<tools>\n- read: ...\n</tools>\n\n/project",
      toolsAdded: ["read"],
      toolsRemoved: [],
      sectionsRemoved: [],
    });
  });

  it("names removed sections and tools of a later system message", () => {
    const later = {
      role: "system",
      content: "",
      sections: { skills: "<skills>...</skills>", cwd: null },
      toolsRemoved: [{ name: "write" }],
    };
    expect(systemPrompt(later)).toEqual({
      text: "<skills>...</skills>",
      toolsAdded: [],
      toolsRemoved: ["write"],
      sectionsRemoved: ["cwd"],
    });
  });

  it("reads damaged values without throwing", () => {
    const empty = { text: "", toolsAdded: [], toolsRemoved: [], sectionsRemoved: [] };
    expect(systemPrompt(null)).toEqual(empty);
    expect(systemPrompt("system")).toEqual(empty);
    expect(systemPrompt({ role: "system", content: 3, sections: [], toolsAdded: "x" })).toEqual(
      empty,
    );
    expect(systemPrompt({ content: [{ type: "image" }, 1], toolsAdded: [{}, null] })).toEqual({
      ...empty,
      toolsAdded: ["?", "?"],
    });
  });

  it(`has the text pi's getSystemMessageText gives (numRuns ${PARAMS.numRuns})`, () => {
    const text = fc.string({ maxLength: 12 });
    const content = fc.oneof(
      text,
      fc.array(fc.record({ type: fc.constant("text" as const), text }), { maxLength: 3 }),
    );
    // Names that are not integer-like, so key order is insertion order (pi's docs ask for that).
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);
    const message = fc.record({
      role: fc.constant("system" as const),
      content,
      sections: fc.option(fc.dictionary(name, fc.option(text, { nil: null }), { maxKeys: 4 }), {
        nil: undefined,
      }),
      timestamp: fc.nat(),
    });
    fc.assert(
      fc.property(message, (m) => {
        expect(systemPrompt(m).text).toBe(getSystemMessageText(m as SystemMessage));
      }),
      PARAMS,
    );
  });
});
