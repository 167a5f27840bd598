import { existsSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { assistant, fileRecords, jsonlFiles, tempDir, user } from "./helpers.js";

describe("persistence (SPEC §6, §13 items 1–3)", () => {
  it("file name is the header timestamp with [:.]→- then _<id>.jsonl; nothing written before the conversation", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/tmp/proj", dir);
    const file = sm.getSessionFile() as string;
    const header = sm.getHeader();
    expect(file).toBe(join(dir, `${header?.timestamp.replace(/[:.]/g, "-")}_${header?.id}.jsonl`));
    expect(sm.isPersisted()).toBe(true);
    sm.appendModelChange("anthropic", "claude-x");
    sm.appendThinkingLevelChange("high");
    sm.appendCustomEntry("ext", { a: 1 });
    sm.appendMessage({
      role: "toolResult",
      toolCallId: "t",
      toolName: "x",
      content: [],
      isError: false,
      timestamp: 1,
    });
    expect(existsSync(file)).toBe(false);
    sm.appendMessage(user("hi"));
    expect(fileRecords(file).map((r) => r.type)).toEqual([
      "session",
      "model_change",
      "thinking_level_change",
      "custom",
      "message",
      "message",
    ]);
    sm.appendMessage(assistant("yo"));
    expect(fileRecords(file)).toHaveLength(7);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    sm.close();
  });

  it("memory equals disk after every append (invariant 3) and a reopen gives the same session", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/tmp/proj", dir);
    const u = sm.appendMessage(user("q"));
    sm.appendMessage(assistant("r"));
    sm.appendLabelChange(u, "start");
    sm.appendSessionInfo("Name");
    sm.branch(u);
    sm.appendMessage(user("other"));
    const file = sm.getSessionFile() as string;
    const onDisk = fileRecords(file);
    expect(onDisk.slice(1)).toEqual(JSON.parse(JSON.stringify(sm.getEntries())));
    expect(onDisk[0]).toEqual(JSON.parse(JSON.stringify(sm.getHeader())));
    const again = SessionManager.open(file);
    expect(again.getEntries()).toEqual(sm.getEntries());
    expect(again.getLabel(u)).toBe("start");
    expect(again.getSessionName()).toBe("Name");
    expect(again.buildSessionContext()).toEqual(sm.buildSessionContext());
    expect(again.getCwd()).toBe("/tmp/proj");
    sm.close();
    again.close();
  });

  it("open(): missing path → pending new session at that path", () => {
    const dir = tempDir();
    const file = join(dir, "later.jsonl");
    const sm = SessionManager.open(file);
    expect(sm.getSessionFile()).toBe(file);
    expect(existsSync(file)).toBe(false);
    sm.appendMessage(user("q"));
    expect(fileRecords(file)[0]).toMatchObject({ type: "session", id: sm.getSessionId() });
    sm.close();
  });

  it("open(): 0-byte file gets a header at once; header-only file is flushed", () => {
    const dir = tempDir();
    const file = join(dir, "empty.jsonl");
    writeFileSync(file, "");
    const sm = SessionManager.open(file);
    expect(fileRecords(file)).toEqual([JSON.parse(JSON.stringify(sm.getHeader()))]);
    sm.appendCustomEntry("x");
    expect(fileRecords(file)).toHaveLength(2);
    sm.close();
  });

  it("open(): non-sessions throw the reference's message and stay unchanged", () => {
    const dir = tempDir();
    for (const content of [
      "\n",
      "garbage\n",
      '{"type":"custom","id":"a"}\n',
      '{"type":"session"}\n',
    ]) {
      const file = join(dir, "bad.jsonl");
      writeFileSync(file, content);
      expect(() => SessionManager.open(file)).toThrow(
        `Session file is not a valid pi session: ${file}`,
      );
      expect(readFileSync(file, "utf8")).toBe(content);
    }
  });

  it("open(): torn tail loads without the fragment, writes nothing, and the next append starts a new line (W1, W13)", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/tmp/proj", dir);
    sm.appendMessage(user("q"));
    const file = sm.getSessionFile() as string;
    sm.close();
    const torn = `${readFileSync(file, "utf8")}{"type":"message","id":"x`;
    writeFileSync(file, torn);
    const again = SessionManager.open(file);
    expect(readFileSync(file, "utf8")).toBe(torn);
    expect(again.getEntryCount()).toBe(1);
    expect(again.getLoadDiagnostics().map((d) => d.kind)).toEqual(["invalid-json"]);
    const id = again.appendMessage(user("after"));
    again.close();
    const reopened = SessionManager.open(file);
    expect(reopened.getEntry(id)).toBeDefined();
    expect(readFileSync(file, "utf8").startsWith(`${torn}\n`)).toBe(true);
    reopened.close();
  });

  it("open(): a v1 file is migrated and rewritten atomically, keeping malformed lines (W3, W4)", () => {
    const dir = tempDir();
    const file = join(dir, "v1.jsonl");
    const lines = [
      '{"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}',
      '{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"q","timestamp":1}}',
      "THIS LINE IS MALFORMED",
      '{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"hookMessage","customType":"h","content":"x","display":true,"timestamp":2}}',
    ];
    writeFileSync(file, `${lines.join("\n")}\n`);
    const sm = SessionManager.open(file);
    const text = readFileSync(file, "utf8").split("\n");
    expect(text[2]).toBe("THIS LINE IS MALFORMED");
    const records = text.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
    expect(records[0]).toMatchObject({ version: 3 });
    expect(records[2]).toMatchObject({ message: { role: "custom" }, parentId: records[1]?.id });
    expect(sm.getEntries().map((e) => e.id)).toEqual([records[1]?.id, records[2]?.id]);
    expect(jsonlFiles(dir)).toEqual(["v1.jsonl"]);
    sm.close();
  });

  it("a deleted file is not recreated without its header (W8)", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/tmp/proj", dir);
    sm.appendMessage(user("q"));
    const file = sm.getSessionFile() as string;
    unlinkSync(file);
    expect(() => sm.appendMessage(user("again"))).toThrow();
    expect(existsSync(file)).toBe(false);
    expect(sm.getEntryCount()).toBe(1);
  });

  it("close() releases the lock; the manager appends again afterwards", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/tmp/proj", dir);
    sm.appendMessage(user("q"));
    const file = sm.getSessionFile() as string;
    expect(existsSync(`${file}.lock`)).toBe(true);
    sm.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
    sm.appendMessage(user("again"));
    expect(fileRecords(file)).toHaveLength(3);
    sm.close();
  });
});
