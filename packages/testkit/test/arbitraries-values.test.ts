/**
 * Every value arbitrary generates only what its core codec accepts, and only values that
 * survive a JSON round trip unchanged (what a file gives back).
 */
import { decodeEntry, formatSchemaIssue } from "@pi-sessions/core";
import {
  AssistantMessageCodec,
  BashExecutionMessageCodec,
  BranchSummaryMessageCodec,
  CompactionSummaryMessageCodec,
  ContentBlockCodec,
  CustomMessageCodec,
  decodeHeader,
  decodeMessage,
  decodeWith,
  ENTRY_CODECS,
  ImageContentCodec,
  SessionHeaderCodec,
  SystemMessageCodec,
  TextContentCodec,
  ThinkingContentCodec,
  ToolCallCodec,
  ToolResultMessageCodec,
  UsageCodec,
  UserMessageCodec,
} from "@pi-sessions/core/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  agentMessageArb,
  assistantMessageArb,
  bashExecutionMessageArb,
  branchSummaryMessageArb,
  compactionSummaryMessageArb,
  contentBlockArb,
  customMessageArb,
  ENTRY_KINDS,
  entryOfTypeArb,
  imageContentArb,
  MESSAGE_ROLES,
  sessionEntryArb,
  sessionHeaderArb,
  systemMessageArb,
  textContentArb,
  thinkingContentArb,
  toolCallArb,
  toolResultMessageArb,
  unknownBlockArb,
  usageArb,
  userContentArb,
  userMessageArb,
} from "../src/internal.js";
import { params, runs } from "./arbitraries-run.js";

/** Any core codec (an io-ts decoder of unknown input). */
type AnyCodec = Parameters<typeof decodeWith<unknown>>[0];

const RUNS = runs(500);

/** Fails with the codec's own words when `value` does not decode, or changes through JSON. */
function expectAccepted(codec: AnyCodec, value: unknown): void {
  const result = decodeWith(codec, value);
  if (result._tag === "Left") {
    throw new Error(
      `${codec.name} rejected ${JSON.stringify(value)}: ${result.left.map(formatSchemaIssue).join("; ")}`,
    );
  }
  expect(JSON.parse(JSON.stringify(value))).toStrictEqual(value);
}

const CASES: [string, fc.Arbitrary<unknown>, AnyCodec][] = [
  ["textContentArb", textContentArb, TextContentCodec],
  ["imageContentArb", imageContentArb, ImageContentCodec],
  ["thinkingContentArb", thinkingContentArb, ThinkingContentCodec],
  ["toolCallArb", toolCallArb, ToolCallCodec],
  ["contentBlockArb", contentBlockArb, ContentBlockCodec],
  ["usageArb()", usageArb(), UsageCodec],
  ["usageArb({legacy})", usageArb({ legacy: true }), UsageCodec],
  ["userMessageArb", userMessageArb({ unknownBlocks: true }), UserMessageCodec],
  ["assistantMessageArb", assistantMessageArb(), AssistantMessageCodec],
  ["toolResultMessageArb", toolResultMessageArb(), ToolResultMessageCodec],
  ["bashExecutionMessageArb", bashExecutionMessageArb, BashExecutionMessageCodec],
  ["customMessageArb", customMessageArb(), CustomMessageCodec],
  ["branchSummaryMessageArb", branchSummaryMessageArb, BranchSummaryMessageCodec],
  ["compactionSummaryMessageArb", compactionSummaryMessageArb, CompactionSummaryMessageCodec],
  ["systemMessageArb", systemMessageArb, SystemMessageCodec],
  ["sessionHeaderArb", sessionHeaderArb({ unknownFields: true }), SessionHeaderCodec],
];

describe(`value arbitraries generate only what their codec accepts (numRuns ${RUNS} each)`, () => {
  for (const [name, arb, codec] of CASES) {
    it(`${name} → ${codec.name}`, () => {
      fc.assert(
        fc.property(arb, (v) => expectAccepted(codec, v)),
        params(RUNS),
      );
    });
  }

  it("userContentArb holds a string or text/image blocks (unknown blocks kept by the codec)", () => {
    fc.assert(
      fc.property(userContentArb({ unknownBlocks: true }), (content) => {
        expectAccepted(UserMessageCodec, { role: "user", content, timestamp: 0 });
      }),
      params(RUNS),
    );
  });

  it("unknownBlockArb never uses a built-in block type", () => {
    fc.assert(
      fc.property(unknownBlockArb, (b) => {
        expect(String(b.type)).toMatch(/^x-/);
        expect(decodeWith(ContentBlockCodec, b)._tag).toBe("Right");
      }),
      params(RUNS),
    );
  });

  it("agentMessageArb covers every role, each accepted by decodeMessage", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(agentMessageArb({ unknownRoles: true }), (m) => {
        seen.add(m.role);
        expect(decodeMessage(m)._tag).toBe("Right");
      }),
      params(RUNS),
    );
    for (const role of MESSAGE_ROLES) expect(seen).toContain(role);
  });

  it("a header decodes with decodeHeader and is written with version 3 by default", () => {
    fc.assert(
      fc.property(sessionHeaderArb(), (h) => {
        expect(decodeHeader(h)._tag).toBe("Right");
        expect(Object.keys(h).slice(0, 5)).toEqual(["type", "version", "id", "timestamp", "cwd"]);
        expect(h.id).toMatch(
          /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        );
      }),
      params(RUNS),
    );
  });
});

describe(`entry arbitraries generate only what ENTRY_CODECS accept (numRuns ${RUNS} each)`, () => {
  for (const type of ENTRY_KINDS) {
    it(`entryOfTypeArb("${type}") → ${ENTRY_CODECS[type].name}`, () => {
      fc.assert(
        fc.property(entryOfTypeArb(type), (e) => {
          // A label or context edit with no target falls back to another type; neither occurs
          // here, because the entry follows a user message on its branch.
          expect(e.type).toBe(type);
          expectAccepted(ENTRY_CODECS[type] as AnyCodec, e);
        }),
        params(RUNS),
      );
    });
  }

  it("sessionEntryArb with unknown types and fields decodes with decodeEntry", () => {
    fc.assert(
      fc.property(
        sessionEntryArb({
          kinds: [...ENTRY_KINDS, "unknown"],
          unknownRoles: true,
          unknownBlocks: true,
        }),
        (e) => {
          const result = decodeEntry(e);
          expect(result._tag).toBe("Right");
          expect(Object.keys(e).slice(0, 1)).toEqual(["type"]);
        },
      ),
      params(RUNS),
    );
  });
});
