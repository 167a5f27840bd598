/**
 * Minimal repros of bugs the persistence properties (conformance-files, faults, two-writers)
 * once found in src, kept as regression tests of the behaviour they require.
 */
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { SessionConflictError, SessionManager } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { tempDir, user } from "./helpers.js";

describe("regressions found by the file conformance and fault suites", () => {
  it("an append after the first write ends its line with `\\n` (SPEC §6.3: one line, JSON + \\n)", () => {
    // Today SessionManager.persistEntry passes the line without `\n` to SessionFileWriter.append,
    // which then writes that `\n` in front of the *next* append: the file never ends in `\n`,
    // its last entry looks torn, and a plain JSONL appender (another tool, the reference)
    // glues its line onto it, losing both (see two-writers.int.test.ts).
    const sm = SessionManager.create("/tmp/p", tempDir());
    sm.appendMessage(user("first write: header and line, each ending in \\n"));
    sm.appendMessage(user("second"));
    const text = readFileSync(sm.getSessionFile() as string, "utf8");
    sm.close();
    expect(text.endsWith("\n")).toBe(true);
  });

  it("an append refused with SessionConflictError does not keep the lock (others stay able to write)", () => {
    // A stale manager whose append conflicts can never write again; if it kept
    // `<file>.lock`, other processes would be locked out until it was closed.
    const dir = tempDir();
    const first = SessionManager.create("/tmp/p", dir);
    first.appendMessage(user("q"));
    const file = first.getSessionFile() as string;
    const stale = SessionManager.open(file);
    first.appendMessage(user("moves the file on"));
    first.close();
    expect(() => stale.appendMessage(user("stale"))).toThrow(/changed by another writer/);
    const fresh = SessionManager.open(file);
    try {
      expect(() => fresh.appendMessage(user("fresh"))).not.toThrow();
    } finally {
      fresh.close();
      stale.close();
    }
  });

  it("structural load diagnostics (duplicate id, dangling parent, cycle) give the file line", () => {
    // LoadDiagnostic.line is the file line for structural problems too (not an entry count).
    const file = join(tempDir(), "s.jsonl");
    const h = {
      type: "session",
      version: 3,
      id: "s",
      timestamp: "2025-01-01T00:00:00.000Z",
      cwd: "/p",
    };
    const e = (id: string, parentId: string | null) =>
      JSON.stringify({ type: "custom", customType: "x", id, parentId, timestamp: h.timestamp });
    writeFileSync(
      file,
      [JSON.stringify(h), e("a", null), "garbage", e("a", null), e("d", "missing"), e("c", "c")]
        .map((l) => `${l}\n`)
        .join(""),
    );
    const sm = SessionManager.open(file);
    const byKind = Object.fromEntries(sm.getLoadDiagnostics().map((d) => [d.kind, d.line]));
    sm.close();
    expect(byKind).toEqual({
      "invalid-json": 3,
      "duplicate-id": 4,
      "dangling-parent": 5,
      cycle: 6,
    });
  });

  it("the lock is one whatever spelling of the path a second manager uses (symlinked dir)", () => {
    const real = tempDir();
    const link = join(tempDir(), "link");
    symlinkSync(real, link);
    const a = SessionManager.create("/p", real);
    a.appendMessage(user("a"));
    const viaLink = join(link, basename(a.getSessionFile() as string));
    const b = SessionManager.open(viaLink);
    b.appendMessage(user("b")); // takes the file over from a, through the same lock file
    expect(() => a.appendMessage(user("a2"))).toThrow(SessionConflictError);
    expect(readdirSync(real).filter((f) => f.endsWith(".lock"))).toHaveLength(1);
    b.close();
    expect(readdirSync(real).filter((f) => f.endsWith(".lock"))).toHaveLength(0);
    a.close();
  });

  it("createBranchedSession whose write fails leaves the manager on the old session", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/p", dir);
    const u = sm.appendMessage(user("q"));
    const file = sm.getSessionFile();
    const id = sm.getSessionId();
    // The session directory vanishes, so the branched file cannot be written (modes would
    // not stop root, who runs CI).
    rmSync(dir, { recursive: true, force: true });
    expect(() => sm.createBranchedSession(u)).toThrow();
    expect(sm.getSessionFile()).toBe(file);
    expect(sm.getSessionId()).toBe(id);
    expect(sm.getEntryCount()).toBe(1);
    sm.close();
  });

  it("a truthy non-string label from a foreign writer sets the label, it does not clear it", () => {
    const file = join(tempDir(), "s.jsonl");
    const ts = "2025-01-01T00:00:00.000Z";
    const lines = [
      { type: "session", version: 3, id: "s", timestamp: ts, cwd: "/p" },
      { type: "custom", customType: "x", id: "a", parentId: null, timestamp: ts },
      { type: "label", id: "l1", parentId: "a", timestamp: ts, targetId: "a", label: "old" },
      { type: "label", id: "l2", parentId: "l1", timestamp: ts, targetId: "a", label: 5 },
    ];
    writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const sm = SessionManager.open(file);
    expect(sm.getLabel("a")).toBe(5);
    sm.close();
  });
});
