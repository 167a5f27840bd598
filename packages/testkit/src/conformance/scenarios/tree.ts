/**
 * Tree semantics (SPEC §7): leaf moves, roots and orphans, child order, labels, session
 * names, getEntries copies, deep trees.
 */
import type { EntryLike, TreeNodeLike } from "../../api-calls/manager-api.js";
import { equal, idsOf, ok } from "../assert.js";
import {
  at,
  compactionEntry,
  entry,
  freshSession,
  labelEntry,
  loadedSession,
  userEntry,
  userMessage,
} from "../fixtures.js";
import type { Scenario } from "../types.js";

/** Tree as `id[label] -> children` lines, preorder, iterative. */
function shape(roots: readonly TreeNodeLike[]): string[] {
  const out: string[] = [];
  const stack = [...roots].reverse();
  for (let n = stack.pop(); n; n = stack.pop()) {
    const label = n.label === undefined ? "" : `[${n.label}@${n.labelTimestamp}]`;
    out.push(`${n.entry.id}${label} -> ${n.children.map((c) => c.entry.id).join(",")}`);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as TreeNodeLike);
  }
  return out;
}

export const treeScenarios: Scenario[] = [
  {
    id: "tree/reset-leaf",
    title: "resetLeaf: no leaf entry, empty branch and context; the next append is a new root",
    spec: "§7.3",
    run(ctx) {
      const sm = freshSession(ctx.module);
      sm.appendMessage(userMessage("a"));
      sm.resetLeaf();
      equal(
        [sm.getLeafId(), sm.getLeafEntry() ?? "none", sm.getBranch()],
        [null, "none", []],
        "after resetLeaf",
      );
      equal(
        sm.buildSessionContext(),
        { messages: [], thinkingLevel: "off", model: null },
        "context",
      );
      const b = sm.appendMessage(userMessage("b"));
      equal(sm.getEntry(b)?.parentId, null, "parentId of the next append");
      equal(idsOf(sm.getTree().map((n) => n.entry)).length, 2, "two roots");
    },
  },
  {
    id: "tree/roots-orphans-order",
    title:
      "roots in file order (null, self-parent, orphan); children by timestamp, stable; getChildren in file order",
    spec: "§7.7, §7.8",
    run(ctx) {
      const sm = loadedSession(ctx.module, [
        userEntry("r1", null, 5),
        userEntry("late", "r1", 9),
        userEntry("early", "r1", 2),
        userEntry("tie1", "r1", 4),
        userEntry("tie2", "r1", 4),
        userEntry("orphan", "gone", 1),
        userEntry("self", "self", 3),
        userEntry("r2", null, 0),
      ]);
      equal(
        shape(sm.getTree()),
        [
          "r1 -> early,tie1,tie2,late",
          "early -> ",
          "tie1 -> ",
          "tie2 -> ",
          "late -> ",
          "orphan -> ",
          "self -> ",
          "r2 -> ",
        ],
        "getTree",
      );
      equal(idsOf(sm.getChildren("r1")), ["late", "early", "tie1", "tie2"], "getChildren(r1)");
      equal(idsOf(sm.getBranch("orphan")), ["orphan"], "an orphan's path starts at the orphan");
      equal(idsOf(sm.getBranch("tie2")), ["r1", "tie2"], "getBranch(tie2)");
      equal([sm.getLeafId(), sm.getEntryCount()], ["r2", 8], "leaf is the last entry");
    },
  },
  {
    id: "tree/labels",
    title:
      'labels: set, change, clear with undefined/""/null, label a label, resolved over the whole file',
    spec: "§5.4, §7.10",
    run(ctx) {
      const sm = freshSession(ctx.module);
      const a = sm.appendMessage(userMessage("a"));
      const l1 = sm.appendLabelChange(a, "one");
      equal(sm.getLabel(a), "one", "set");
      sm.appendLabelChange(a, "two");
      equal(sm.getLabel(a), "two", "change");
      for (const clear of [undefined, "", null]) {
        sm.appendLabelChange(a, "again");
        sm.appendLabelChange(a, clear);
        equal(sm.getLabel(a) ?? "none", "none", `cleared by ${JSON.stringify(clear)}`);
      }
      sm.appendLabelChange(l1, "on a label");
      equal(sm.getLabel(l1), "on a label", "a label entry can be labelled");
      sm.branch(a);
      sm.resetLeaf();
      const other = sm.appendMessage(userMessage("other root"));
      const set = sm.appendLabelChange(a, "from elsewhere");
      equal(sm.getLabel(a), "from elsewhere", "a label appended on another branch applies");
      const node = sm.getTree().find((n) => n.entry.id === a);
      equal(
        [node?.label, node?.labelTimestamp],
        ["from elsewhere", sm.getEntry(set)?.timestamp],
        "tree label and time",
      );
      equal(sm.getEntry(set)?.parentId, other, "the label entry is a child of the leaf");
    },
  },
  {
    id: "tree/labels-loaded",
    title:
      "loaded labels: replayed in file order over all branches; a dangling label still answers",
    spec: "§7.10",
    run(ctx) {
      const sm = loadedSession(ctx.module, [
        userEntry("a", null, 1),
        labelEntry("l1", "a", 2, "a", "first"),
        labelEntry("l2", null, 3, "a", "second"),
        labelEntry("l3", "l2", 4, "ghost", "boo"),
        labelEntry("l4", "l3", 5, "l1", "x"),
        labelEntry("l5", "l4", 6, "l1"),
      ]);
      equal(
        [sm.getLabel("a"), sm.getLabel("ghost"), sm.getLabel("l1") ?? "none"],
        ["second", "boo", "none"],
        "labels",
      );
      equal(sm.getLeafId(), "l5", "a label last in the file is the leaf");
      equal(sm.buildSessionContext().messages, [], "label entries add nothing to context");
    },
  },
  {
    id: "tree/session-name",
    title: "session name: the latest session_info in file order on any branch; empty clears",
    spec: "§7.11",
    run(ctx) {
      const sm = freshSession(ctx.module);
      equal(sm.getSessionName() ?? "none", "none", "no session_info");
      const a = sm.appendSessionInfo("first");
      sm.appendSessionInfo(" second ");
      equal(sm.getSessionName(), "second", "latest wins");
      sm.branch(a);
      sm.appendSessionInfo("   ");
      equal(sm.getSessionName() ?? "none", "none", "empty clears, whatever the branch");
      sm.appendSessionInfo("third");
      equal(sm.getSessionName(), "third", "set again");
      const loaded = loadedSession(ctx.module, [
        entry("session_info", "s1", null, 1, { name: " loaded " }),
        entry("session_info", "s2", "s1", 2, {}),
      ]);
      equal(loaded.getSessionName() ?? "none", "none", "a session_info without a name clears");
    },
  },
  {
    id: "tree/label-starts-branch",
    title: "a label appended while on an older entry starts a new branch there",
    spec: "§7.1",
    run(ctx) {
      const sm = freshSession(ctx.module);
      const a = sm.appendMessage(userMessage("a"));
      const b = sm.appendMessage(userMessage("b"));
      sm.branch(a);
      const l = sm.appendLabelChange(b, "mark");
      equal(idsOf(sm.getChildren(a)), [b, l], "children of a");
      equal(idsOf(sm.getBranch()), [a, l], "the active path");
    },
  },
  {
    id: "tree/entries-are-copies",
    title:
      "getEntries returns a new array each call; getEntryCount matches; getHeader is the header",
    spec: "§7.9",
    run(ctx) {
      const sm = ctx.module.SessionManager.inMemory("/work/project", { id: "s-1" });
      sm.appendMessage(userMessage("a"));
      const list = sm.getEntries() as EntryLike[];
      ok(list !== sm.getEntries(), "a new array each call");
      list.length = 0;
      equal([sm.getEntries().length, sm.getEntryCount()], [1, 1], "the session is unchanged");
      const h = sm.getHeader() as Record<string, unknown>;
      equal([h.type, h.version, h.id, h.cwd], ["session", 3, "s-1", sm.getCwd()], "header fields");
    },
  },
  {
    id: "tree/deep-chain",
    title:
      "a 20,000-entry chain: getTree, getBranch and the context work without overflowing the stack",
    spec: "§7.8",
    run(ctx) {
      const n = 20_000;
      const es = Array.from({ length: n }, (_, i) =>
        userEntry(`e${i}`, i === 0 ? null : `e${i - 1}`, i % 60),
      );
      const sm = loadedSession(ctx.module, es);
      let depth = 0;
      for (let node = sm.getTree()[0]; node; node = node.children[0]) depth++;
      equal(depth, n, "tree depth");
      equal(sm.getBranch().length, n, "branch length");
      equal(sm.buildSessionContext().messages.length, n, "context length");
    },
  },
  {
    id: "tree/unknown-types",
    title:
      "unknown entry types and fields: indexed, in tree and paths, no context, kept by createBranchedSession",
    spec: "§2.6",
    run(ctx) {
      const future = entry("hologram", "h", "a", 2, { beam: { x: 1 } });
      const sm = loadedSession(ctx.module, [
        { ...userEntry("a", null, 1), extra: "kept" },
        future,
        userEntry("b", "h", 3),
      ]);
      equal(sm.getEntry("h"), future, "indexed unchanged");
      equal(idsOf(sm.getBranch()), ["a", "h", "b"], "on the path");
      equal(sm.buildSessionContext().messages.length, 2, "adds no message");
      equal((sm.getEntry("a") as EntryLike).extra, "kept", "unknown field kept");
      sm.createBranchedSession("b");
      equal(sm.getEntry("h"), future, "carried into the branched session");
    },
  },
  {
    id: "tree/branched-in-memory",
    title:
      "createBranchedSession in memory: path without labels, re-linked; labels recreated with their times; new id",
    spec: "§9",
    run(ctx) {
      const sm = loadedSession(ctx.module, [
        userEntry("u1", null, 1),
        labelEntry("l1", "u1", 2, "u1", "start"),
        userEntry("u2", "l1", 3),
        compactionEntry("k", "u2", 4, "S", "l1", 1),
        labelEntry("l2", "k", 5, "u2", "mid"),
        userEntry("u3", "l2", 6),
        userEntry("off", "u1", 7),
        labelEntry("l3", "off", 8, "off", "dropped"),
      ]);
      const oldId = sm.getSessionId();
      equal(
        sm.createBranchedSession("u3") ?? "undefined",
        "undefined",
        "returns undefined in memory",
      );
      const es = sm.getEntries();
      equal(
        es.slice(0, 4).map((e) => [e.id, e.parentId]),
        [
          ["u1", null],
          ["u2", "u1"],
          ["k", "u2"],
          ["u3", "k"],
        ],
        "kept entries re-linked",
      );
      equal(
        (es[2] as EntryLike).firstKeptEntryId,
        "u2",
        "a compaction keeping from a dropped label keeps from the next entry",
      );
      const labels = es.slice(4).map((e) => [e.type, e.parentId, e.timestamp, e.targetId, e.label]);
      equal(
        labels,
        [
          ["label", "u3", at(2), "u1", "start"],
          ["label", es[4]?.id, at(5), "u2", "mid"],
        ],
        "labels recreated in order",
      );
      ok(sm.getSessionId() !== oldId, "new session id");
      equal(
        [sm.getLeafId(), sm.getHeader()?.parentSession ?? "none"],
        [es[5]?.id, "none"],
        "leaf is the last label; no parentSession",
      );
      equal(
        [sm.getLabel("u1"), sm.getLabel("off") ?? "none"],
        ["start", "none"],
        "labels off the path dropped",
      );
    },
  },
];
