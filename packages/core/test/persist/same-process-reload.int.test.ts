/**
 * The reload that lets a newer manager continue after an older manager of this process
 * appended to the file it had read (SPEC W7: ingest complete lines, never fork silently). It
 * happens before a write reads the state, so every check, parent and leaf move sees the
 * reloaded entries; it keeps a leaf that was moved (or reset) and follows the new entries only
 * when they continue the old tip; and only a newer manager may do it: an older or taken-over
 * one conflicts, whatever it does in between.
 */
import { readFileSync } from "node:fs";
import { SessionConflictError, SessionManager } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { assistant, tempDir, user } from "./helpers.js";

/** A flushed session (two entries) and a newer manager on the same file, neither closed. */
function pair(): { older: SessionManager; newer: SessionManager; file: string } {
  const older = SessionManager.create("/work/project", tempDir());
  older.appendMessage(user("q"));
  older.appendMessage(assistant("a"));
  const file = older.getSessionFile() as string;
  return { older, newer: SessionManager.open(file), file };
}

/** `[id, parentId]` of every entry line of a file. */
function links(file: string): [string, string | null][] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .slice(1)
    .map((line) => {
      const r = JSON.parse(line) as { id: string; parentId: string | null };
      return [r.id, r.parentId];
    });
}

describe("the newer manager's reload before a write (W7)", () => {
  it("branchWithSummary after the reload keeps its target and summarises from the old leaf", () => {
    const { older, newer } = pair();
    const [, a] = newer.getEntries().map((e) => e.id) as [string, string];
    const late = older.appendCustomEntry("ext-state", { saved: true });
    const summary = newer.branchWithSummary(a, "back to a");
    const entry = newer.getEntry(summary) as { parentId: string | null; fromId?: string };
    expect(entry.parentId).toBe(a);
    expect(entry.fromId).toBe(late); // the leaf had followed the late entry before the move
    expect(newer.getEntry(late)).toBeDefined();
    const rootSummary = newer.branchWithSummary(null, "a new root");
    expect(newer.getEntry(rootSummary)?.parentId).toBeNull();
  });

  it("a write refused after the reload leaves memory equal to the file", () => {
    const { older, newer, file } = pair();
    const late = older.appendCustomEntry("ext-state", { saved: true });
    const stop = newer.addEntryValidator(() => {
      throw new Error("refused by a guard");
    });
    expect(() => newer.branchWithSummary(null, "refused")).toThrow("refused by a guard");
    stop();
    expect(newer.getEntries().map((e) => e.id)).toEqual(links(file).map(([id]) => id));
    const id = newer.appendMessage(user("after the refusal"));
    expect(newer.getEntry(id)?.parentId).toBe(late);
    const chain = links(file);
    for (let k = 1; k < chain.length; k++) expect(chain[k]?.[1]).toBe(chain[k - 1]?.[0]);
  });

  it("a reset leaf stays reset: the next append is a new root", () => {
    const { older, newer } = pair();
    newer.resetLeaf();
    older.appendCustomEntry("ext-state", { saved: true });
    const id = newer.appendMessage(user("new root"));
    expect(newer.getEntry(id)?.parentId).toBeNull();
  });

  it("the leaf does not jump to entries the older manager appended on another branch", () => {
    const { older, newer } = pair();
    const [q, a] = older.getEntries().map((e) => e.id) as [string, string];
    older.branch(q);
    older.appendMessage(user("older's other branch"));
    const id = newer.appendMessage(user("newer continues its own branch"));
    expect(newer.getEntry(id)?.parentId).toBe(a);
  });

  it("the check of a label target and a context edit sees the reloaded entries", () => {
    const { older, newer } = pair();
    const late = older.appendMessage(user("late question"));
    newer.appendLabelChange(late, "seen");
    expect(newer.getLabel(late)).toBe("seen");
    expect(() => newer.appendContextEdit(late, { content: "edited" })).not.toThrow();
  });

  it("an older manager cannot reload and take the file from a newer one that wrote", () => {
    const { older: first, file } = pair();
    const stale = SessionManager.open(file);
    const current = SessionManager.open(file);
    current.appendMessage(user("current writes"));
    const bytes = readFileSync(file, "utf8");
    expect(() => stale.appendMessage(user("stale"))).toThrow(SessionConflictError);
    expect(readFileSync(file, "utf8")).toBe(bytes);
    current.appendMessage(user("current still writes"));
    expect(() => first.appendMessage(user("first"))).toThrow(SessionConflictError);
  });

  it("closing a taken-over manager does not make it newer", () => {
    const { older, newer, file } = pair();
    newer.appendMessage(user("newer takes over"));
    older.close();
    expect(() => older.appendMessage(user("older after close"))).toThrow(SessionConflictError);
    newer.appendMessage(user("newer keeps the file"));
    expect(links(file)).toHaveLength(4);
  });
});
