import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { assistant, fileRecords, jsonlFiles, tempDir, user } from "./helpers.js";

describe("forkFrom (SPEC §10.1, §13 item 11)", () => {
  it("copies the whole tree into a new file for the target cwd, written at once", () => {
    const src = tempDir();
    const out = tempDir();
    const sm = SessionManager.create("/a/src", src);
    const u = sm.appendMessage(user("q"));
    sm.appendMessage(assistant("r"));
    sm.appendLabelChange(u, "l");
    sm.branch(u);
    sm.appendCustomEntry("ext");
    const source = sm.getSessionFile() as string;
    sm.close();
    const before = readFileSync(source, "utf8");
    const fork = SessionManager.forkFrom(source, "/b/target", out, {
      id: "forked-1",
      parentSession: "/ignored",
    });
    expect(fork.getSessionId()).toBe("forked-1");
    expect(fork.getCwd()).toBe("/b/target");
    expect(fork.getHeader()).toMatchObject({ version: 3, cwd: "/b/target", parentSession: source });
    const file = fork.getSessionFile() as string;
    expect(fileRecords(file).slice(1)).toEqual(fileRecords(source).slice(1));
    expect(fork.getLeafId()).toBe(fork.getEntries().at(-1)?.id);
    expect(readFileSync(source, "utf8")).toBe(before);
    fork.close();
  });

  it("errors: missing/empty/invalid source; invalid custom id", () => {
    const dir = tempDir();
    const missing = join(dir, "nope.jsonl");
    expect(() => SessionManager.forkFrom(missing, "/t", dir)).toThrow(
      `Cannot fork: source session file is empty or invalid: ${missing}`,
    );
    const empty = join(dir, "empty.jsonl");
    writeFileSync(empty, "");
    expect(() => SessionManager.forkFrom(empty, "/t", dir)).toThrow("Cannot fork");
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, "garbage\n");
    expect(() => SessionManager.forkFrom(bad, "/t", dir)).toThrow("Cannot fork");
    const sm = SessionManager.create("/t", dir);
    sm.appendMessage(user("q"));
    sm.close();
    expect(() =>
      SessionManager.forkFrom(sm.getSessionFile() as string, "/t", dir, { id: "-bad" }),
    ).toThrow("Session id must be non-empty");
  });

  it("a legacy v1 source is migrated in the fork and never written to (W12, W13)", () => {
    const dir = tempDir();
    const source = join(dir, "legacy.jsonl");
    const text = [
      '{"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}',
      '{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"q","timestamp":1}}',
      '{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"hookMessage","customType":"h","content":"x","display":true,"timestamp":2}}',
    ].join("\n"); // no final newline: R1.6 would append one to the source
    writeFileSync(source, text);
    const out = tempDir();
    const fork = SessionManager.forkFrom(source, "/t", out);
    expect(readFileSync(source, "utf8")).toBe(text);
    const [a, b] = fork.getEntries();
    expect(a?.parentId).toBeNull();
    expect(b).toMatchObject({ parentId: a?.id, message: { role: "custom" } });
    expect(fork.buildSessionContext().messages).toHaveLength(2);
    fork.close();
  });
});

describe("createBranchedSession persisted (SPEC §9, §13 item 10)", () => {
  it("writes the new file at once when the path has a conversation; parentSession = old file", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/p", dir);
    const u = sm.appendMessage(user("q"));
    sm.appendMessage(assistant("r"));
    const old = sm.getSessionFile() as string;
    const file = sm.createBranchedSession(u) as string;
    expect(file).not.toBe(old);
    expect(sm.getSessionFile()).toBe(file);
    expect(fileRecords(file)[0]).toMatchObject({ parentSession: old });
    expect(
      fileRecords(file)
        .slice(1)
        .map((r) => r.id),
    ).toEqual([u]);
    sm.appendMessage(assistant("new"));
    expect(fileRecords(file)).toHaveLength(3);
    expect(fileRecords(old)).toHaveLength(3);
    sm.close();
  });

  it("stays pending without a conversation; [Fix] W24: no parentSession when the source was never written", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/p", dir);
    const m = sm.appendModelChange("a", "b");
    const file = sm.createBranchedSession(m) as string;
    expect(existsSync(file)).toBe(false);
    expect(sm.getHeader()).not.toHaveProperty("parentSession");
    sm.appendMessage(user("now"));
    expect(fileRecords(file).map((r) => r.type)).toEqual(["session", "model_change", "message"]);
    expect(jsonlFiles(dir)).toEqual([file.slice(dir.length + 1)]);
    sm.close();
  });
});
