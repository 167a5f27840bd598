/**
 * pi's own flows inside one process (SPEC §6.3, §12 W7: no silent fork between two writers): pi
 * never calls `close()` on a manager, and it opens a new manager on a file it wrote earlier when it
 * resumes a session (`/new` then `/resume` back, `switchSession`, `open` of an older file). An
 * implementation that guards a file against a second writer must still let these flows through: the
 * newest manager that writes takes the file over. Only an older manager that appends after the
 * takeover is refused, which the reference cannot do (it has no guard at all), so that one scenario
 * is a W7 [Fix] case.
 */
import { readFileSync } from "node:fs";
import type { JsonObject, SessionManagerLike } from "../../api-calls/manager-api.js";
import { checkI1Header } from "../../invariants/structure.js";
import { checkSessionInvariants } from "../../invariants/table.js";
import { formatViolation } from "../../invariants/types.js";
import { equal, equalOrdered, idsOf, ok, ScenarioAssertion } from "../assert.js";
import { assistantMessage, msAt, userMessage } from "../fixtures.js";
import type { Scenario, ScenarioContext } from "../types.js";
import { fileRecords } from "./files.js";

const CWD = "/work/project";

/** How many abandoned managers the last scenario opens on one file. */
const MANY_MANAGERS = 200;

/**
 * Runs `f`, turning an exception into a failure that names the step and the error's class:
 * in these flows the usual wrong outcome is a throw (a lock held by an abandoned manager of
 * the same process), and the class name tells a lock refusal from anything else.
 */
function step<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    const name = e instanceof Error ? e.name : typeof e;
    const message = e instanceof Error ? e.message : String(e);
    throw new ScenarioAssertion(`${what} threw ${name}: ${message}`);
  }
}

/**
 * A user message and an assistant reply at seconds `s` and `s + 1`. A reply is what makes
 * every implementation write the file (the reference waits for a conversation), so a later
 * `open` finds it on disk.
 */
function talk(sm: SessionManagerLike, s: number, who: string): string[] {
  return step(`${who}'s first messages`, () => [
    sm.appendMessage(userMessage(`question from ${who}`, msAt(s))),
    sm.appendMessage({ ...assistantMessage(`answer to ${who}`), timestamp: msAt(s + 1) }),
  ]);
}

/** A new file-backed session in `dir` that has been written, and its file. */
function written(ctx: ScenarioContext, dir: string, s: number, who: string) {
  const sm = ctx.module.SessionManager.create(CWD, dir);
  const ids = talk(sm, s, who);
  return { sm, ids, file: sm.getSessionFile() as string };
}

/** `SessionManager.open(file)`, failing with the step's name if it throws. */
const reopen = (ctx: ScenarioContext, file: string, who: string): SessionManagerLike =>
  step(`open for ${who}`, () => ctx.module.SessionManager.open(file));

/**
 * Fails unless `file` holds a header and then exactly the entries `ids`, each the child of
 * the one before (every append here continues the leaf), and unless a fresh `open` of it
 * loads them in that order with the leaf on the last one and the tree invariants holding.
 * Returns the fresh manager.
 */
function expectChain(
  ctx: ScenarioContext,
  file: string,
  ids: readonly string[],
  what: string,
): SessionManagerLike {
  const text = readFileSync(file, "utf8");
  equal(checkI1Header(text).map(formatViolation), [], `${what}: header`);
  const records = fileRecords(file).slice(1) as JsonObject[];
  equal(idsOf(records), ids, `${what}: entry ids in the file`);
  equal(
    records.map((r) => r.parentId),
    [null, ...ids.slice(0, -1)],
    `${what}: each entry continues the one before`,
  );
  const fresh = reopen(ctx, file, `the check of ${what}`);
  equal(idsOf(fresh.getEntries()), ids, `${what}: entries after a reload`);
  equal(fresh.getLeafId(), ids.at(-1), `${what}: leaf after a reload`);
  equal(checkSessionInvariants(fresh).map(formatViolation), [], `${what}: tree invariants`);
  return fresh;
}

/**
 * Closes the managers once every check is done. pi never does this; the suite does it only
 * so that an implementation with locks leaves none behind in the calling process.
 */
function closeAll(ctx: ScenarioContext, managers: readonly unknown[]): void {
  for (const manager of managers) step("close() at the end", () => ctx.close(manager));
}

/** `list()`'s entry for the session with header id `id`. */
function infoOf(infos: readonly JsonObject[], id: string): JsonObject {
  const info = infos.find((i) => i.id === id);
  ok(info, `list() has session ${id} (${JSON.stringify(infos.map((i) => i.id))})`);
  return info;
}

/** Milliseconds of a `SessionInfo.modified` (a Date), or the value itself when it is not one. */
const millis = (value: unknown): unknown => (value instanceof Date ? value.getTime() : value);

export const sameProcessScenarios: Scenario[] = [
  {
    id: "same-process/reopen-without-close",
    title:
      "open of a file an unclosed manager wrote: the new manager appends a message, a label and a custom entry",
    spec: "§6.3, §12 W7",
    run(ctx) {
      const a = written(ctx, ctx.tempDir(), 1, "A");
      // A is left open, as pi leaves it when it switches to another manager on the file.
      const b = reopen(ctx, a.file, "B");
      equal(idsOf(b.getEntries()), a.ids, "B loads A's entries");
      const fromB = step("B's appends", () => [
        b.appendMessage(userMessage("from B", msAt(3))),
        b.appendLabelChange(a.ids[0] as string, "start"),
        b.appendCustomEntry("ext", { n: 1 }),
      ]);
      equal(b.getLeafId(), fromB[2], "B's leaf is its last append");
      const fresh = expectChain(ctx, a.file, [...a.ids, ...fromB], "the file");
      equalOrdered(fresh.getEntries(), b.getEntries(), "a reload equals B's entries, key order");
      equal(fresh.getLabel(a.ids[0] as string), "start", "B's label after a reload");
      closeAll(ctx, [a.sm, b, fresh]);
    },
  },
  {
    id: "same-process/resume-back",
    title:
      "a second session, then open of the first and of the second again: each appends; list() shows the newest activity",
    spec: "§6.3, §10.5, §12 W7",
    async run(ctx) {
      const dir = ctx.tempDir();
      const one = written(ctx, dir, 1, "session 1");
      // Like /new: a second session is started while the first manager stays open.
      const two = written(ctx, dir, 3, "session 2");
      // Like /resume back to session 1: a new manager on the file the first one wrote.
      const backInOne = reopen(ctx, one.file, "the resume of session 1");
      const three = step("the append after resuming session 1", () =>
        backInOne.appendMessage(userMessage("back in one", msAt(5))),
      );
      const checkOne = expectChain(ctx, one.file, [...one.ids, three], "session 1");
      // And back again to session 2, whose first manager was never closed either.
      const backInTwo = reopen(ctx, two.file, "the resume of session 2");
      const four = step("the append after resuming session 2", () =>
        backInTwo.appendMessage(userMessage("back in two", msAt(6))),
      );
      const checkTwo = expectChain(ctx, two.file, [...two.ids, four], "session 2");
      equal(
        idsOf(fileRecords(one.file).slice(1)),
        [...one.ids, three],
        "session 1 is untouched by the work on session 2",
      );
      // modified is the newest message time, so it must be the resumed manager's append,
      // not the last one the first manager made.
      const infos = (await ctx.module.SessionManager.list(CWD, dir)) as JsonObject[];
      const first = infoOf(infos, one.sm.getSessionId());
      const second = infoOf(infos, two.sm.getSessionId());
      equal(
        [millis(first.modified), millis(second.modified)],
        [msAt(5), msAt(6)],
        "modified of sessions 1 and 2",
      );
      equal([first.messageCount, second.messageCount], [3, 3], "messageCount of sessions 1 and 2");
      equal(
        infos.map((i) => i.id),
        [two.sm.getSessionId(), one.sm.getSessionId()],
        "list() order, newest first",
      );
      closeAll(ctx, [one.sm, two.sm, backInOne, backInTwo, checkOne, checkTwo]);
    },
  },
  {
    id: "same-process/append-after-takeover",
    title:
      "after a newer manager wrote the file, an append by the older one throws SessionConflictError and changes nothing",
    spec: "§6.3, §12 W7",
    fix: "W7",
    run(ctx) {
      const a = written(ctx, ctx.tempDir(), 1, "A");
      const b = reopen(ctx, a.file, "B");
      const firstOfB = step("B's append", () => b.appendMessage(userMessage("from B", msAt(3))));
      const bytes = readFileSync(a.file);
      const memory = JSON.stringify(a.sm.getEntries());
      const leaf = a.sm.getLeafId();
      // A still believes the file ends with its own reply; appending on that belief would
      // fork the tree without anyone noticing, so it must be refused instead.
      const attempts: [string, () => unknown][] = [
        ["appendMessage", () => a.sm.appendMessage(userMessage("stale A", msAt(4)))],
        ["appendCustomEntry", () => a.sm.appendCustomEntry("ext", { stale: true })],
      ];
      for (const [method, attempt] of attempts) {
        let error: unknown;
        try {
          attempt();
        } catch (e) {
          error = e;
        }
        ok(error !== undefined, `A's ${method} after B took the file over was not refused`);
        const name = error instanceof Error ? error.name : typeof error;
        equal(name, "SessionConflictError", `the error A's ${method} throws`);
        ok(readFileSync(a.file).equals(bytes), `the file is unchanged by A's ${method}`);
        equal(JSON.stringify(a.sm.getEntries()), memory, `A's entries after its ${method}`);
        equal(a.sm.getLeafId(), leaf, `A's leaf after its ${method}`);
      }
      const secondOfB = step("B's append after A was refused", () =>
        b.appendMessage(userMessage("from B again", msAt(5))),
      );
      const fresh = expectChain(ctx, a.file, [...a.ids, firstOfB, secondOfB], "the file");
      closeAll(ctx, [a.sm, b, fresh]);
    },
  },
  {
    id: "same-process/older-writes-after-reopen",
    title:
      "the older manager appends after a newer one opened the file: the newer one's append continues from that entry (no silent fork)",
    spec: "§6.3, §12 W7",
    fix: "W7",
    run(ctx) {
      // pi's switchSession to the current file opens the new manager first and only then
      // shuts the old session down, whose extensions may still append (state saved on
      // shutdown). The newer manager's next append must neither fork the tree past that
      // entry nor be refused.
      const a = written(ctx, ctx.tempDir(), 1, "A");
      const b = reopen(ctx, a.file, "B");
      const late = step("A's append after B opened", () =>
        a.sm.appendCustomEntry("ext-state", { saved: "on shutdown" }),
      );
      const fromB = step("B's append", () => b.appendMessage(userMessage("from B", msAt(3))));
      equal(b.getEntry(fromB)?.parentId, late, "the parent of B's append");
      const fresh = expectChain(ctx, a.file, [...a.ids, late, fromB], "the file");
      closeAll(ctx, [a.sm, b, fresh]);
    },
  },
  {
    id: "same-process/many-managers",
    title: `${MANY_MANAGERS} managers opened on one file and abandoned, each appending once: every entry is kept`,
    spec: "§6.3, §12 W7",
    run(ctx) {
      const a = written(ctx, ctx.tempDir(), 1, "A");
      const managers: SessionManagerLike[] = [a.sm];
      const ids = [...a.ids];
      // Each manager is opened, appends one entry and is dropped without close(), as pi does
      // on every resume; whatever an implementation keeps per manager must not pile up into
      // refusals.
      for (let i = 0; i < MANY_MANAGERS; i++) {
        const sm = reopen(ctx, a.file, `manager ${i + 1}`);
        ids.push(step(`manager ${i + 1}'s append`, () => sm.appendCustomEntry("tick", { i })));
        managers.push(sm);
      }
      const fresh = expectChain(ctx, a.file, ids, "the file");
      equal(
        fresh
          .getEntries()
          .slice(2)
          .map((e) => (e.data as { i?: unknown } | undefined)?.i),
        Array.from({ length: MANY_MANAGERS }, (_, i) => i),
        "the data of the managers' entries, in order",
      );
      closeAll(ctx, [...managers, fresh]);
    },
  },
];
