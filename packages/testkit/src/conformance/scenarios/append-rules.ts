/**
 * Append rules that are not about one entry's shape (SPEC §3.3, §5.2–§5.5): the order of
 * appendContextEdit's checks, the `Entry <id> not found` errors, id form and uniqueness,
 * wall-clock timestamps, and messages of any role passing through unchanged.
 */
import type { EntryLike } from "../../api-calls/manager-api.js";
import { equal, ok, throwsMessage } from "../assert.js";
import { freshSession, userMessage } from "../fixtures.js";
import type { Scenario } from "../types.js";

export const appendRuleScenarios: Scenario[] = [
  {
    id: "append/context-edit-errors",
    title: "appendContextEdit checks replacement, existence, branch and editability in that order",
    spec: "§5.4 [R1.6]",
    run(ctx) {
      const sm = freshSession(ctx.module);
      const u = sm.appendMessage(userMessage("q"));
      const c = sm.appendCustomEntry("ext");
      throwsMessage(
        () => sm.appendContextEdit("nope", { content: 5 }),
        "Context edit replacement must be null or contain string/array content",
        "invalid replacement first",
      );
      throwsMessage(
        () => sm.appendContextEdit("nope", null),
        "Entry nope not found",
        "unknown target",
      );
      throwsMessage(
        () => sm.appendContextEdit(c, { content: "x" }),
        `Entry ${c} does not contribute editable model content`,
        "custom entry",
      );
      sm.resetLeaf();
      sm.appendMessage(userMessage("other root"));
      throwsMessage(
        () => sm.appendContextEdit(u, null),
        `Entry ${u} is not on the active branch`,
        "off the branch",
      );
      equal(sm.getEntryCount(), 3, "nothing was appended by the failed calls");
    },
  },
  {
    id: "append/unknown-id-errors",
    title:
      "unknown ids: branch, branchWithSummary, appendLabelChange, createBranchedSession throw `Entry <id> not found`",
    spec: "§5.5",
    run(ctx) {
      const sm = freshSession(ctx.module);
      const a = sm.appendMessage(userMessage("a"));
      throwsMessage(() => sm.branch("missing"), "Entry missing not found", "branch");
      throwsMessage(
        () => sm.branchWithSummary("missing", "s"),
        "Entry missing not found",
        "branchWithSummary",
      );
      throwsMessage(
        () => sm.appendLabelChange("missing", "x"),
        "Entry missing not found",
        "appendLabelChange",
      );
      throwsMessage(
        () => sm.createBranchedSession("missing"),
        "Entry missing not found",
        "createBranchedSession",
      );
      equal([sm.getLeafId(), sm.getEntryCount()], [a, 1], "leaf and entries unchanged");
    },
  },
  {
    id: "append/ids-and-clock",
    title: "entry ids are 8 lowercase hex and unique; timestamps are the wall clock at append time",
    spec: "§5.2, §5.3",
    run(ctx) {
      const sm = freshSession(ctx.module);
      const ids = new Set<string>();
      for (let i = 0; i < 200; i++) {
        const before = Date.now();
        const id = sm.appendCustomEntry("x", i);
        const after = Date.now();
        ok(/^[0-9a-f]{8}$/.test(id), `id ${id} is 8 lowercase hex characters`);
        ok(!ids.has(id), `id ${id} is unique`);
        ids.add(id);
        const t = Date.parse((sm.getEntry(id) as EntryLike).timestamp);
        ok(t >= before && t <= after, `timestamp ${t} lies within the call (${before}..${after})`);
      }
    },
  },
  {
    id: "append/any-role",
    title: "appendMessage accepts any role, summary roles and unknown ones included, unchanged",
    spec: "§3.3, §5.4",
    run(ctx) {
      const sm = freshSession(ctx.module);
      const odd = [
        { role: "compactionSummary", summary: "s", tokensBefore: 1, timestamp: 1 },
        { role: "hologram", beam: [1, { x: null }], timestamp: 2 },
        { role: "user", content: [{ type: "hologram", z: 1 }], timestamp: 3, extra: "kept" },
      ];
      for (const m of odd)
        equal((sm.getEntry(sm.appendMessage(m)) as EntryLike).message, m, `role ${m.role}`);
      equal(sm.buildSessionContext().messages, odd, "all pass through to context unchanged");
    },
  },
];
