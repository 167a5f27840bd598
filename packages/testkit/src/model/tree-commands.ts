/**
 * Commands for the leaf and branch methods (SPEC §7.2–§7.4, §9) and one for the getters,
 * which must answer without changing anything and hand out copies of the entry list.
 */

import type { Target } from "../api-calls/call-args.js";
import type { EntryLike, SessionManagerLike } from "../api-calls/manager-api.js";
import type { Extras } from "../api-calls/manager-calls.js";
import type { SessionCommand } from "./append-commands.js";
import { assertMatchesModel, ModelMismatchError } from "./check.js";
import { orderedJson } from "./json.js";
import { notFound, type SessionModel } from "./session-model.js";
import {
  attempt,
  callOn,
  copyArg,
  expectError,
  expectSuccess,
  resolveTarget,
  runAppend,
  runNavigation,
  show,
} from "./step.js";

/** `branch(entryId)`: moves the leaf; unknown ids throw (SPEC §7.2). */
export class BranchCommand implements SessionCommand {
  constructor(readonly target: Target) {}
  check(): boolean {
    return true;
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    const id = resolveTarget(m, this.target);
    const error = m.has(id) ? undefined : notFound(id);
    runNavigation(
      `${this} [${id}]`,
      m,
      sm,
      error,
      callOn(m, sm, { op: "branch", target: this.target }),
      () => {
        m.leafId = id;
      },
    );
  }
  toString(): string {
    return `branch(${show(this.target)})`;
  }
}

/** `resetLeaf()`: the leaf becomes null, the next append a new root (SPEC §7.3). */
export class ResetLeafCommand implements SessionCommand {
  check(): boolean {
    return true;
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    runNavigation("resetLeaf()", m, sm, undefined, callOn(m, sm, { op: "resetLeaf" }), () => {
      m.leafId = null;
    });
  }
  toString(): string {
    return "resetLeaf()";
  }
}

/** `branchWithSummary(fromId | null, summary, ...)`: fromId is the old leaf or "root" (§7.4). */
export class BranchWithSummaryCommand implements SessionCommand {
  constructor(
    readonly target: Target | null,
    readonly summary: string,
    readonly extras: Extras,
  ) {}
  check(): boolean {
    return true;
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    const from = this.target === null ? null : resolveTarget(m, this.target);
    const error = from !== null && !m.has(from) ? notFound(from) : undefined;
    const fromId = m.leafId ?? "root";
    const { details, usage, fromHook } = this.extras;
    runAppend(
      `${this} [from ${from}]`,
      m,
      sm,
      error,
      callOn(m, sm, {
        op: "branchWithSummary",
        target: this.target,
        summary: this.summary,
        extras: this.extras,
      }),
      (id, ts) => ({
        type: "branch_summary",
        id,
        parentId: from,
        timestamp: ts,
        fromId,
        summary: this.summary,
        details: copyArg(details),
        usage: copyArg(usage),
        fromHook,
      }),
    );
  }
  toString(): string {
    return `branchWithSummary(${show(this.target)}, ${show(this.summary)}, ${show(this.extras)})`;
  }
}

/**
 * `createBranchedSession(leafId)` (SPEC §9): the session becomes the path without labels plus
 * recreated labels, under a new session id; returns undefined in memory and the new session
 * file when persisted.
 */
export class CreateBranchedSessionCommand implements SessionCommand {
  constructor(readonly target: Target) {}
  check(): boolean {
    return true;
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    const leaf = resolveTarget(m, this.target);
    const what = `${this} [${leaf}]`;
    const oldSessionId = m.sessionId;
    const outcome = attempt(callOn(m, sm, { op: "createBranchedSession", target: this.target }));
    const predicted = m.branchedEntries(leaf, []);
    if (typeof predicted === "string") {
      expectError(what, outcome, predicted);
      assertMatchesModel(what, m, sm);
      return;
    }
    expectSuccess(what, outcome);
    const diffs: string[] = [];
    // In memory it returns undefined; a persisted session returns its new file (SPEC §9).
    const file = attempt(() => (sm.isPersisted() ? sm.getSessionFile() : undefined));
    const expected = file.ok ? file.value : undefined;
    if (outcome.value !== expected) {
      const where = expected === undefined ? "in memory" : "(the new session file)";
      diffs.push(`returned ${show(outcome.value)}, expected ${show(expected)} ${where}`);
    }
    const after = attempt(() => sm.getEntries());
    const entries = after.ok ? (after.value as readonly EntryLike[]) : [];
    const labelIds = entries.slice(predicted.kept.length).map((e) => String(e?.id));
    const keptIds = new Set(predicted.kept.map((e) => e.id));
    if (new Set(labelIds).size !== labelIds.length || labelIds.some((id) => keptIds.has(id))) {
      diffs.push(`recreated label ids ${labelIds.join(",")} are not fresh`);
    }
    const branched = m.branchedEntries(leaf, labelIds);
    const sessionId = attempt(() => sm.getSessionId());
    const newId = sessionId.ok ? String(sessionId.value) : "";
    if (newId === "" || newId === oldSessionId) diffs.push(`session id ${newId} did not change`);
    if (typeof branched !== "string")
      m.adoptBranched([...branched.kept, ...branched.labels], newId);
    if (diffs.length > 0) throw new ModelMismatchError(what, diffs);
    assertMatchesModel(what, m, sm);
  }
  toString(): string {
    return `createBranchedSession(${show(this.target)})`;
  }
}

/**
 * The getters on one target (`getEntry`, `getBranch`, `getChildren`, `getLabel`) plus a write
 * into the array `getEntries()` returned, which must not reach the session (SPEC §7.9).
 */
export class ReadCommand implements SessionCommand {
  constructor(readonly target: Target) {}
  check(): boolean {
    return true;
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    const id = resolveTarget(m, this.target);
    const what = `${this} [${id}]`;
    const diffs: string[] = [];
    const got = attempt(() => ({
      entry: sm.getEntry(id),
      branch: sm.getBranch(id).map((e) => e.id),
      children: sm.getChildren(id).map((e) => e.id),
      label: sm.getLabel(id),
    }));
    const want = {
      entry: m.entry(id),
      branch: m.branch(id).map((e) => e.id),
      children: m.children(id).map((e) => e.id),
      label: m.labels.get(id)?.label,
    };
    if (!got.ok) diffs.push(`getters threw "${got.error}"`);
    else if (orderedJson(got.value) !== orderedJson(want)) {
      diffs.push(`getters on ${id}: ${show(got.value)}, expected ${show(want)}`);
    }
    // A frozen array may refuse the change (allowed); the state comparison below shows
    // whether a change reached the session.
    attempt(() => {
      const entries = sm.getEntries() as EntryLike[];
      entries.push({ type: "custom", id: "intruder", parentId: null, timestamp: "" });
      entries.length = 0;
    });
    if (diffs.length > 0) throw new ModelMismatchError(what, diffs);
    assertMatchesModel(what, m, sm);
  }
  toString(): string {
    return `read(${show(this.target)})`;
  }
}
