/**
 * Context building (SPEC §8) beyond the worked examples, and the inMemory factory (§6.6).
 */

import { equal, equalOrdered, idsOf, throwsMessage } from "../assert.js";
import { INVALID_ID_MESSAGE } from "../constants.js";
import {
  assistantEntry,
  compactionEntry,
  entry,
  header,
  messageOf,
  msAt,
  userEntry,
} from "../fixtures.js";
import type { Scenario } from "../types.js";

const FREE = ["buildSessionContext", "buildSessionProjection", "buildContextEntries"] as const;

export const contextScenarios: Scenario[] = [
  {
    id: "context/leaf-selection",
    title:
      "free functions: null leaf gives nothing; undefined or unknown leaf walks from the last entry",
    spec: "§8.1",
    needs: FREE,
    run({ module: M }) {
      const es = [userEntry("a", null, 1), userEntry("b", "a", 2), userEntry("c", null, 3)];
      equal(idsOf(M.buildContextEntries(es, null)), [], "null");
      for (const leaf of [undefined, "zzz"])
        equal(idsOf(M.buildContextEntries(es, leaf)), ["c"], `leaf ${leaf}`);
      equal(idsOf(M.buildContextEntries(es, "b")), ["a", "b"], "known leaf");
      equal(idsOf(M.buildContextEntries([], undefined)), [], "no entries");
    },
  },
  {
    id: "context/settings",
    title: "settings: the last thinking level / model change / assistant on the whole path wins",
    spec: "§8.2",
    needs: FREE,
    run({ module: M }) {
      const es = [
        entry("model_change", "m", null, 1, { provider: "p", modelId: "x" }),
        assistantEntry("a", "m", 2, "r"),
        entry("thinking_level_change", "t", "a", 3, { thinkingLevel: "minimal" }),
      ];
      const ctx = M.buildSessionContext(es);
      equal(
        [ctx.thinkingLevel, ctx.model],
        ["minimal", { provider: "anthropic", modelId: "claude-x" }],
        "settings",
      );
      equal(
        M.buildSessionContext(es, "m").model,
        { provider: "p", modelId: "x" },
        "model_change alone",
      );
    },
  },
  {
    id: "context/entry-messages",
    title: 'entry → messages: null content becomes [] ("" for system), custom_message, summaries',
    spec: "§8.4",
    needs: ["sessionEntryToContextMessages"],
    run({ module: M }) {
      const conv = M.sessionEntryToContextMessages;
      for (const role of ["user", "assistant", "toolResult"]) {
        const e = entry("message", "m", null, 1, {
          message: { role, content: null, timestamp: 1 },
        });
        equal(conv(e), [{ role, content: [], timestamp: 1 }], `${role} with null content`);
        equal((e.message as { content: unknown }).content, null, "the stored entry is not changed");
      }
      const sys = entry("message", "s", null, 1, { message: { role: "system", timestamp: 1 } });
      equal(conv(sys), [{ role: "system", timestamp: 1, content: "" }], "system without content");
      const cm = entry("custom_message", "c", null, 2, {
        customType: "t",
        content: null,
        display: true,
      });
      equal(
        conv(cm),
        [{ role: "custom", customType: "t", content: [], display: true, timestamp: msAt(2) }],
        "custom_message",
      );
      for (const type of [
        "custom",
        "label",
        "session_info",
        "model_change",
        "thinking_level_change",
        "usage",
        "context_edit",
        "hologram",
      ]) {
        equal(conv(entry(type, "x", null, 1)), [], `${type} adds nothing`);
      }
      const summary = entry("branch_summary", "b", null, 3, { fromId: "root", summary: "s" });
      equal(
        conv(summary),
        [{ role: "branchSummary", summary: "s", fromId: "root", timestamp: msAt(3) }],
        "branch summary",
      );
      const invalid = entry("branch_summary", "b", null, 3, {
        fromId: "root",
        summary: "s",
        timestamp: "not a date",
      });
      equal(
        conv(invalid)[0],
        { role: "branchSummary", summary: "s", fromId: "root", timestamp: null },
        "invalid date gives NaN (null in JSON)",
      );
    },
  },
  {
    id: "context/compaction-ranges",
    title: "compaction: kept range drops system messages; older compactions kept but silent",
    spec: "§8.3, §8.5",
    needs: [...FREE, "getLatestCompactionEntry"],
    run({ module: M }) {
      const es = [
        userEntry("u1", null, 1),
        entry("message", "sys", "u1", 2, {
          message: { role: "system", content: "prompt", timestamp: 2 },
        }),
        compactionEntry("k1", "sys", 3, "old", "k1", 1),
        userEntry("u2", "k1", 4),
        compactionEntry("k2", "u2", 5, "new", "u1", 2),
        userEntry("u3", "k2", 6),
      ];
      equal(idsOf(M.buildContextEntries(es)), ["k2", "u1", "k1", "u2", "u3"], "entries");
      const p = M.buildSessionProjection(es);
      equal(
        p.entries.map((e) => [e.sourceEntry.id, e.messages.length]),
        [
          ["k2", 1],
          ["u1", 1],
          ["k1", 0],
          ["u2", 1],
          ["u3", 1],
        ],
        "projection",
      );
      equal(M.getLatestCompactionEntry(es)?.id, "k2", "getLatestCompactionEntry");
    },
  },
  {
    id: "context/edits",
    title:
      "context edits: last edit on the context wins; null removes; edits apply only on their branch",
    spec: "§8.5 [R1.6]",
    needs: FREE,
    run({ module: M }) {
      const es = [
        userEntry("u", null, 1),
        assistantEntry("a", "u", 2, "long"),
        entry("context_edit", "e1", "a", 3, { targetId: "a", replacement: { content: "first" } }),
        entry("context_edit", "e2", "e1", 4, {
          targetId: "a",
          replacement: { content: [{ type: "text", text: "second" }] },
        }),
        entry("context_edit", "e3", "e2", 5, { targetId: "u", replacement: null }),
        userEntry("side", "a", 6),
      ];
      const msgs = M.buildSessionContext(es, "e3").messages as { role: string; content: unknown }[];
      equal(
        msgs.map((m) => [m.role, m.content]),
        [["assistant", [{ type: "text", text: "second" }]]],
        "edited context",
      );
      equal(M.buildSessionContext(es, "side").messages.length, 3, "the other branch is not edited");
      const one = M.buildSessionContext(es, "e1").messages[1] as { content: unknown };
      equal(
        one.content,
        [{ type: "text", text: "first" }],
        "string content on an assistant becomes a text block",
      );
    },
  },
  {
    id: "context/in-memory-factory",
    title:
      "inMemory: options honoured; invalid id message; a header among entries is adopted; v1 records migrated",
    spec: "§1.4, §4, §6.6",
    run({ module: M }) {
      const sm = M.SessionManager.inMemory("/work/project", {
        id: "my.id-1",
        parentSession: "/p.jsonl",
      });
      const h = sm.getHeader() as Record<string, unknown>;
      equalOrdered(
        Object.keys(h),
        ["type", "version", "id", "timestamp", "cwd", "parentSession"],
        "header keys",
      );
      equal(
        [h.id, h.parentSession, sm.getSessionId()],
        ["my.id-1", "/p.jsonl", "my.id-1"],
        "options",
      );
      equal(
        [sm.isPersisted(), sm.getSessionFile() ?? "none", sm.getSessionDir()],
        [false, "none", ""],
        "in memory",
      );
      for (const id of ["-a", "a.", "a b", "", "é", "a/b"]) {
        throwsMessage(
          () => M.SessionManager.inMemory("/w", { id }),
          INVALID_ID_MESSAGE,
          `id ${JSON.stringify(id)}`,
        );
      }
      const adopted = M.SessionManager.inMemory("/elsewhere", { id: "ignored" }, [
        header(),
        userEntry("a", null, 1),
      ]);
      equal([adopted.getSessionId(), adopted.getLeafId()], ["file-session", "a"], "header adopted");
      const v1 = M.SessionManager.inMemory("/w", undefined, [
        { type: "session", id: "old", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/w" },
        {
          type: "message",
          timestamp: "2024-01-01T00:00:01.000Z",
          message: {
            role: "hookMessage",
            customType: "x",
            content: "c",
            display: true,
            timestamp: 1,
          },
        },
      ]);
      const [only] = v1.getEntries();
      equal(
        [typeof only?.id, only?.parentId, messageOf(only).role],
        ["string", null, "custom"],
        "v1 migrated",
      );
    },
  },
];
