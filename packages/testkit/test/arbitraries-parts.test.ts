/**
 * The exported building-block arbitraries that the value, log and damage tests only reach
 * through bigger arbitraries: each is checked directly against its codec, its doc comment, or
 * what core's line parser reports for it.
 */
import { decodeEntry, SessionManager } from "@pi-sessions/core";
import {
  ContentBlockCodec,
  decodeWith,
  documentIssues,
  ImageContentCodec,
  parseJsonl,
  TextContentCodec,
  ThinkingContentCodec,
  ToolCallCodec,
} from "@pi-sessions/core/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  amountArb,
  assistantContentArb,
  blankLineArb,
  cwdArb,
  garbageLineArb,
  isoFromMs,
  jsonObjectArb,
  jsonValueArb,
  MAX_MS,
  MIN_MS,
  msArb,
  nonObjectLineArb,
  sessionEntriesArb,
  sessionIdArb,
  sessionJsonlArb,
  textOrImageBlocksArb,
  toolCallIdArb,
} from "../src/internal.js";
import { params, runs } from "./arbitraries-run.js";

const RUNS = runs(300);

const decodes = (codec: Parameters<typeof decodeWith>[0], value: unknown): boolean =>
  decodeWith(codec, value)._tag === "Right";

/** The line-level issues core's parser reports for one line, as `kind` strings. */
const lineIssues = (line: string): string[] =>
  documentIssues(parseJsonl(line)).map((i) => `${i.kind}@${i.line}`);

describe(`content building blocks (numRuns ${RUNS} each)`, () => {
  it("textOrImageBlocksArb: every block is a text or image block, at most maxBlocks", () => {
    fc.assert(
      fc.property(textOrImageBlocksArb({ maxBlocks: 2 }), (blocks) => {
        expect(blocks.length).toBeLessThanOrEqual(2);
        for (const b of blocks) {
          expect(decodes(TextContentCodec, b) || decodes(ImageContentCodec, b)).toBe(true);
        }
      }),
      params(RUNS),
    );
  });

  it("assistantContentArb: every block is text, thinking or a tool call", () => {
    fc.assert(
      fc.property(assistantContentArb(), (blocks) => {
        for (const b of blocks) {
          expect(decodes(ContentBlockCodec, b)).toBe(true);
          expect(["text", "thinking", "toolCall"]).toContain(b.type);
          if (b.type === "thinking") expect(decodes(ThinkingContentCodec, b)).toBe(true);
          if (b.type === "toolCall") expect(decodes(ToolCallCodec, b)).toBe(true);
        }
      }),
      params(RUNS),
    );
  });

  it("toolCallIdArb spells ids as OpenAI (call_) or Anthropic (toolu_) do", () => {
    fc.assert(
      fc.property(toolCallIdArb, (id) => {
        expect(id).toMatch(/^(call|toolu)_[A-Za-z0-9]+$/);
      }),
      params(RUNS),
    );
  });
});

describe(`scalar and JSON arbitraries (numRuns ${RUNS} each)`, () => {
  it("msArb stays in [MIN_MS, MAX_MS] and isoFromMs gives the ISO form Date writes", () => {
    fc.assert(
      fc.property(msArb, (ms) => {
        expect(ms).toBeGreaterThanOrEqual(MIN_MS);
        expect(ms).toBeLessThanOrEqual(MAX_MS);
        expect(isoFromMs(ms)).toBe(new Date(ms).toISOString());
      }),
      params(RUNS),
    );
  });

  it("amountArb is finite, non-negative and unchanged by JSON", () => {
    fc.assert(
      fc.property(amountArb, (x) => {
        expect(Number.isFinite(x) && x >= 0).toBe(true);
        expect(JSON.parse(JSON.stringify(x))).toBe(x);
      }),
      params(RUNS),
    );
  });

  it("jsonValueArb and jsonObjectArb are exactly what a parsed line holds", () => {
    fc.assert(
      fc.property(jsonValueArb, jsonObjectArb, (v, o) => {
        expect(JSON.parse(JSON.stringify(v))).toStrictEqual(v);
        expect(JSON.parse(JSON.stringify(o))).toStrictEqual(o);
        expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
      }),
      params(RUNS),
    );
  });

  it("cwdArb is an absolute POSIX path; sessionIdArb a lowercase UUIDv7", () => {
    fc.assert(
      fc.property(cwdArb, sessionIdArb, (cwd, id) => {
        expect(cwd.startsWith("/")).toBe(true);
        expect(cwd).not.toMatch(/\/\/|\n/);
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }),
      params(RUNS),
    );
  });
});

describe(`line arbitraries: what core's line parser reports (numRuns ${RUNS} each)`, () => {
  it("garbageLineArb: one line, reported as invalid-json", () => {
    fc.assert(
      fc.property(garbageLineArb, (line) => {
        expect(line).not.toContain("\n");
        expect(lineIssues(line)).toEqual(["invalid-json@1"]);
      }),
      params(RUNS),
    );
  });

  it("nonObjectLineArb: JSON that is not an object, reported as not-an-object", () => {
    fc.assert(
      fc.property(nonObjectLineArb, (line) => {
        const value: unknown = JSON.parse(line);
        expect(typeof value !== "object" || value === null || Array.isArray(value)).toBe(true);
        expect(lineIssues(line)).toEqual(["not-an-object@1"]);
      }),
      params(RUNS),
    );
  });

  it("blankLineArb: whitespace only, no issue", () => {
    fc.assert(
      fc.property(blankLineArb, (line) => {
        expect(line.trim()).toBe("");
        expect(lineIssues(line)).toEqual([]);
      }),
      params(RUNS),
    );
  });
});

describe(`sessionEntriesArb and sessionJsonlArb (numRuns ${runs(100)} each)`, () => {
  it("sessionEntriesArb: entries that decode, unique ids, parents earlier in the list", () => {
    fc.assert(
      fc.property(sessionEntriesArb({ maxEntries: 20 }), (entries) => {
        const seen = new Set<string>();
        for (const e of entries) {
          expect(decodeEntry(e)._tag).toBe("Right");
          expect(seen.has(e.id)).toBe(false);
          if (e.parentId !== null) expect(seen.has(e.parentId)).toBe(true);
          seen.add(e.id);
        }
      }),
      params(runs(100)),
    );
  });

  it("sessionJsonlArb: a header line, then a file that loads without a diagnostic", () => {
    fc.assert(
      fc.property(sessionJsonlArb({ maxEntries: 20 }), (jsonl) => {
        const first = JSON.parse(jsonl.split("\n")[0] ?? "") as { type?: unknown };
        expect(first.type).toBe("session");
        const sm = SessionManager.fromJsonl(jsonl);
        expect(sm.getLoadDiagnostics()).toEqual([]);
        const records = jsonl.split("\n").filter((l) => l.trim() !== "").length;
        expect(sm.getEntries()).toHaveLength(records - 1);
      }),
      params(runs(100)),
    );
  });
});
