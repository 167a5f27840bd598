/**
 * The worked examples of SPEC §8.7, through the free context functions and through a manager
 * loaded with the same records.
 */
import { equal, idsOf } from "../assert.js";
import {
  compactionEntry,
  entry,
  exampleA,
  exampleB,
  loadedSession,
  messagesOf,
  msAt,
  userEntry,
} from "../fixtures.js";
import type { Scenario } from "../types.js";

const CONTEXT = ["buildSessionContext", "buildContextEntries", "SessionManager"] as const;

export const specExampleScenarios: Scenario[] = [
  {
    id: "example/A-settings-custom-label",
    title: "example A: settings from the whole path, custom_message conversion, labels",
    spec: "§8.7 A",
    needs: CONTEXT,
    run({ module: M }) {
      const es = exampleA();
      const all = {
        messages: [
          ...messagesOf(es, "u1", "a1"),
          {
            role: "custom",
            customType: "ext",
            content: "Injected",
            display: false,
            details: { k: 2 },
            timestamp: msAt(5),
          },
        ],
        thinkingLevel: "high",
        model: { provider: "openai", modelId: "gpt-x" },
      };
      for (const leaf of [undefined, "unknown-leaf"]) {
        equal(M.buildSessionContext(es, leaf), all, `context at leaf ${leaf}`);
        equal(
          idsOf(M.buildContextEntries(es, leaf)),
          ["u1", "t1", "a1", "m1", "c1", "cm1", "l1"],
          `entries at ${leaf}`,
        );
      }
      equal(
        M.buildSessionContext(es, "a1"),
        {
          messages: messagesOf(es, "u1", "a1"),
          thinkingLevel: "high",
          model: { provider: "anthropic", modelId: "claude-x" },
        },
        "context at leaf a1",
      );
      equal(
        M.buildSessionContext(es, null),
        { messages: [], thinkingLevel: "off", model: null },
        "leaf null",
      );
      const sm = loadedSession(M, es);
      equal(sm.getLabel("u1"), "start", "getLabel(u1) after load");
      equal(sm.getLeafId(), "l1", "leaf after load");
      equal(sm.buildSessionContext(), all, "manager context");
    },
  },
  {
    id: "example/B-compaction-branches",
    title:
      "example B: compaction keeps from firstKeptEntryId; branch summary; other branch unaffected",
    spec: "§8.7 B",
    needs: CONTEXT,
    run({ module: M }) {
      const es = exampleB();
      const summary = {
        role: "compactionSummary",
        summary: "S1",
        tokensBefore: 500,
        timestamp: msAt(4),
      };
      equal(idsOf(M.buildContextEntries(es, "u3")), ["k1", "u2", "a2", "u3"], "entries at u3");
      equal(
        M.buildSessionContext(es, "u3").messages,
        [summary, ...messagesOf(es, "u2", "a2", "u3")],
        "messages at u3",
      );
      const branchSummary = {
        role: "branchSummary",
        summary: "Tried a side path",
        fromId: "x1",
        timestamp: msAt(7),
      };
      for (const leaf of ["u4", undefined]) {
        equal(
          idsOf(M.buildContextEntries(es, leaf)),
          ["u1", "a1", "b1", "u4"],
          `entries at ${leaf}`,
        );
        equal(
          M.buildSessionContext(es, leaf).messages,
          [...messagesOf(es, "u1", "a1"), branchSummary, ...messagesOf(es, "u4")],
          `messages at ${leaf}`,
        );
      }
      equal(idsOf(M.buildContextEntries(es, "x1")), ["u1", "a1", "u2", "x1"], "entries at x1");
      const sm = loadedSession(M, es);
      sm.branch("u3");
      equal(
        sm.buildSessionContext().messages,
        [summary, ...messagesOf(es, "u2", "a2", "u3")],
        "manager at u3",
      );
    },
  },
  {
    id: "example/C-two-compactions",
    title: "example C: a compaction keeping from an older one; only the newest summarises",
    spec: "§8.7 C",
    needs: CONTEXT,
    run({ module: M }) {
      const es = [
        userEntry("u1", null, 0),
        compactionEntry("c1", "u1", 1, "S1", "u1", 1),
        userEntry("u2", "c1", 2),
        compactionEntry("c2", "u2", 3, "S2", "c1", 2),
        userEntry("u3", "c2", 4),
      ];
      equal(idsOf(M.buildContextEntries(es)), ["c2", "c1", "u2", "u3"], "entries");
      equal(
        M.buildSessionContext(es).messages,
        [
          { role: "compactionSummary", summary: "S2", tokensBefore: 2, timestamp: msAt(3) },
          ...messagesOf(es, "u2", "u3"),
        ],
        "only the newest compaction summarises",
      );
    },
  },
  {
    id: "example/C-keep-none",
    title:
      "example C: firstKeptEntryId off the path, its own id, or missing keeps nothing before it",
    spec: "§8.7 C",
    needs: CONTEXT,
    run({ module: M }) {
      const base = [userEntry("u1", null, 0), userEntry("side", null, 1)];
      for (const keep of [{ firstKeptEntryId: "side" }, { firstKeptEntryId: "k" }, {}]) {
        const es = [
          ...base,
          entry("compaction", "k", "u1", 2, { summary: "S", ...keep, tokensBefore: 9 }),
          userEntry("u2", "k", 3),
        ];
        equal(
          idsOf(M.buildContextEntries(es)),
          ["k", "u2"],
          `entries with ${JSON.stringify(keep)}`,
        );
      }
    },
  },
  {
    id: "example/C-settings-and-empty-summary",
    title:
      "example C: settings before a compaction still count; an empty branch summary adds nothing",
    spec: "§8.7 C",
    needs: CONTEXT,
    run({ module: M }) {
      const es = [
        entry("thinking_level_change", "t", null, 0, { thinkingLevel: "low" }),
        entry("model_change", "m", "t", 1, { provider: "p", modelId: "x" }),
        compactionEntry("k", "m", 2, "S", "k", 1),
        entry("branch_summary", "b", "k", 3, { fromId: "root", summary: "" }),
      ];
      const ctx = M.buildSessionContext(es);
      equal(ctx.thinkingLevel, "low", "thinking level");
      equal(ctx.model, { provider: "p", modelId: "x" }, "model");
      equal(
        ctx.messages,
        [{ role: "compactionSummary", summary: "S", tokensBefore: 1, timestamp: msAt(2) }],
        "messages",
      );
    },
  },
];
