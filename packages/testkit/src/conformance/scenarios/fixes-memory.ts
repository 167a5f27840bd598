/**
 * [Fix] rows of SPEC §12 observable without files: W6 (non-object lines), W10/W11 (legacy
 * migration), W14/W15 (cycles, duplicate ids in getTree), W18 (id length), W20 (state shared
 * with the caller). The reference fails these by design; an implementation that fails them
 * is reported as having a known reference deviation.
 */
import type { JsonObject, TreeNodeLike } from "../../api-calls/manager-api.js";
import { equal, ok, thrown } from "../assert.js";
import { INVALID_ID_MESSAGE } from "../constants.js";
import { at, header, labelEntry, messageOf, userEntry, userMessage } from "../fixtures.js";
import type { Scenario } from "../types.js";

/** Every node id of a tree, preorder, iterative (safe on shared nodes: bounded by a budget). */
function treeIds(roots: readonly TreeNodeLike[], budget = 10_000): string[] {
  const out: string[] = [];
  const stack = [...roots].reverse();
  for (let n = stack.pop(); n && out.length < budget; n = stack.pop()) {
    out.push(n.entry.id);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as TreeNodeLike);
  }
  return out;
}

export const memoryFixScenarios: Scenario[] = [
  {
    id: "fix/W6-parse-non-objects",
    title: "parseSessionEntries skips JSON lines that are not objects",
    spec: "§2.1, §8.6",
    fix: "W6",
    needs: ["parseSessionEntries"],
    run({ module: M }) {
      const a = userEntry("a", null, 1);
      const text = [
        JSON.stringify(header()),
        "42",
        '"str"',
        "[1,2]",
        "true",
        "null",
        JSON.stringify(a),
      ].join("\n");
      equal(M.parseSessionEntries(text), [header(), a], "only the objects");
    },
  },
  {
    id: "fix/W10-versionless-keeps-tree",
    title: "migrating a header without version keeps existing ids and parentIds (no flattening)",
    spec: "§2.4",
    fix: "W10",
    needs: ["migrateSessionEntries"],
    run({ module: M }) {
      const records: JsonObject[] = [
        header({ version: undefined }),
        userEntry("a", null, 1),
        userEntry("b1", "a", 2),
        userEntry("b2", "a", 3),
        labelEntry("l", "b2", 4, "b1", "x"),
      ];
      M.migrateSessionEntries(records);
      equal(
        records.slice(1).map((r) => [r.id, r.parentId]),
        [
          ["a", null],
          ["b1", "a"],
          ["b2", "a"],
          ["l", "b2"],
        ],
        "tree kept",
      );
    },
  },
  {
    id: "fix/W11-forward-first-kept-index",
    title: "v1 migration resolves a firstKeptEntryIndex that points after the compaction",
    spec: "§2.4",
    fix: "W11",
    needs: ["migrateSessionEntries"],
    run({ module: M }) {
      const records: JsonObject[] = [
        { type: "session", id: "old", timestamp: at(0), cwd: "/w" },
        { type: "message", timestamp: at(1), message: userMessage("q") },
        {
          type: "compaction",
          timestamp: at(2),
          summary: "S",
          firstKeptEntryIndex: 3,
          tokensBefore: 1,
        },
        { type: "message", timestamp: at(3), message: userMessage("kept") },
      ];
      M.migrateSessionEntries(records);
      const [, , c, target] = records as JsonObject[];
      ok(typeof target?.id === "string", "the target has an id");
      equal(
        c?.firstKeptEntryId,
        target?.id,
        "firstKeptEntryId names the entry after the compaction",
      );
    },
  },
  {
    id: "fix/W14-cycles-in-tree",
    title: "getTree shows every entry of a parent cycle (broken at its first member)",
    spec: "§7.8",
    fix: "W14",
    run(ctx) {
      // getBranch/buildSessionContext are not called: on the reference they never return.
      const sm = ctx.module.SessionManager.inMemory("/w", undefined, [
        header(),
        userEntry("a", "b", 1),
        userEntry("b", "a", 2),
        userEntry("s", "s", 3),
        userEntry("r", null, 4),
      ]);
      equal(treeIds(sm.getTree()).sort(), ["a", "b", "r", "s"], "every entry once");
    },
  },
  {
    id: "fix/W15-duplicate-ids-in-tree",
    title: "with duplicate ids getTree has one node per id; lookups stay last-wins",
    spec: "§7.8",
    fix: "W15",
    run(ctx) {
      const sm = ctx.module.SessionManager.inMemory("/w", undefined, [
        header(),
        userEntry("r", null, 1),
        userEntry("a", "r", 2, "first"),
        userEntry("a", "r", 3, "second"),
        userEntry("z", "a", 4),
      ]);
      equal(messageOf(sm.getEntry("a")).content, "second", "last wins");
      equal(treeIds(sm.getTree()), ["r", "a", "z"], "one node per id");
    },
  },
  {
    id: "fix/W18-id-length",
    title: "a custom session id too long for a file name is rejected with its own message",
    spec: "§1.4",
    fix: "W18",
    run(ctx) {
      const message = thrown(
        () => ctx.module.SessionManager.inMemory("/w", { id: "a".repeat(300) }),
        "300-char id",
      );
      ok(message !== INVALID_ID_MESSAGE, "a message other than the character-set one");
    },
  },
  {
    id: "fix/W20-message-copied",
    title: "a message object changed after appendMessage does not change the session",
    spec: "§0.1 (3)",
    fix: "W20",
    run(ctx) {
      const sm = ctx.module.SessionManager.inMemory("/w");
      const m = { role: "user", content: "original", timestamp: 1 };
      const id = sm.appendMessage(m);
      m.content = "changed";
      equal(messageOf(sm.getEntry(id)).content, "original", "stored message");
    },
  },
  {
    id: "fix/W20-entries-copied",
    title: "inMemory copies the given records and never appends to the caller's array",
    spec: "§6.6",
    fix: "W20",
    run(ctx) {
      const given: JsonObject[] = [header(), userEntry("a", null, 1)];
      const sm = ctx.module.SessionManager.inMemory("/w", undefined, given);
      messageOf(given[1]).content = "changed by caller";
      sm.appendMessage(userMessage("b"));
      equal(given.length, 2, "the caller's array is not appended to");
      equal(messageOf(sm.getEntry("a")).content, "a", "the caller's objects are not the state");
    },
  },
];
