import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createDeterministicEnv,
  SessionConflictError,
  type SessionEventMap,
  SessionManager,
} from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { tempDir } from "../store/helpers.js";
import { assistant, fresh, HEADER, user } from "./fixtures.js";

const env = () => createDeterministicEnv({ seed: 7, stepMs: 1000 });

describe("bus: sessionSwitched and diagnostics", () => {
  it("newSession announces the new session and names the previous one", () => {
    const sm = fresh();
    const first = sm.getSessionId();
    const seen: SessionEventMap["sessionSwitched"][] = [];
    sm.events.on("sessionSwitched", (e) => seen.push(e));
    sm.newSession();
    expect(seen).toEqual([
      {
        reason: "new",
        sessionId: sm.getSessionId(),
        file: undefined,
        previousSessionId: first,
        previousFile: undefined,
      },
    ]);
    expect(sm.getSessionId()).not.toBe(first);
  });

  it("setSessionFile announces the loaded file, then its load diagnostics with lines", () => {
    const dir = tempDir();
    const file = join(dir, "damaged.jsonl");
    const entry = (id: string, parentId: string | null) =>
      JSON.stringify({
        type: "message",
        id,
        parentId,
        timestamp: "2025-01-01T10:00:01.000Z",
        message: user(id),
      });
    writeFileSync(file, `${HEADER}\n${entry("a1", null)}\n{not json\n${entry("b2", "a1")}\n`);
    const sm = SessionManager.create("/tmp/proj", dir, { env: env() });
    const events: Array<[string, unknown]> = [];
    sm.events.on("sessionSwitched", (e) => events.push(["sessionSwitched", e]));
    sm.events.on("diagnostics", (e) => events.push(["diagnostics", e]));
    sm.setSessionFile(file);
    expect(events.map(([t]) => t)).toEqual(["sessionSwitched", "diagnostics"]);
    expect(events[0]?.[1]).toMatchObject({ reason: "open", sessionId: "s1", file });
    const diag = events[1]?.[1] as SessionEventMap["diagnostics"];
    expect(diag.file).toBe(file);
    expect(diag.diagnostics).toEqual(sm.getLoadDiagnostics());
    expect(diag.diagnostics.map((d) => [d.kind, d.line])).toEqual([["invalid-json", 3]]);
    // The entries around the damaged line were kept, with their file lines.
    expect(sm.getEntries().map((e) => e.id)).toEqual(["a1", "b2"]);
    expect([0, 1].map((p) => sm.getEntryLineNumber(p))).toEqual([2, 4]);
  });

  it("a clean load emits no diagnostics event", () => {
    const dir = tempDir();
    const source = SessionManager.create("/tmp/proj", dir, { env: env() });
    source.appendMessage(user("hi"));
    source.appendMessage(assistant("yo"));
    const file = source.getSessionFile() as string;
    const sm = SessionManager.inMemory("/tmp/proj");
    const types: string[] = [];
    sm.events.on("*", (type) => types.push(type));
    sm.setSessionFile(file);
    expect(types).toEqual(["sessionSwitched"]);
  });

  it("createBranchedSession announces the branched session", () => {
    const sm = fresh();
    const a = sm.appendMessage(user("a"));
    sm.appendMessage(user("b"));
    const before = sm.getSessionId();
    const seen: SessionEventMap["sessionSwitched"][] = [];
    sm.events.on("sessionSwitched", (e) => seen.push(e));
    sm.createBranchedSession(a);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ reason: "branched", previousSessionId: before });
    expect(seen[0]?.sessionId).toBe(sm.getSessionId());
  });
});

describe("bus: persisted appends", () => {
  it("entryAppended fires after the line is in the file", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/tmp/proj", dir, { env: env() });
    const onDisk: boolean[] = [];
    sm.events.on("entryAppended", ({ entry }) => {
      const file = sm.getSessionFile() as string;
      let text = "";
      try {
        text = readFileSync(file, "utf8");
      } catch {
        // Still pending: the file does not exist before the first conversation message.
      }
      onDisk.push(text.includes(`"id":"${entry.id}"`));
    });
    sm.appendCustomEntry("ext", { n: 1 }); // pending: kept in memory, not written yet
    sm.appendMessage(user("hi")); // flushes header and both entries
    sm.appendMessage(assistant("yo")); // one line
    expect(onDisk).toEqual([false, true, true]);
  });

  it("an append that fails to persist emits nothing and changes nothing", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/tmp/proj", dir, { env: env() });
    sm.appendMessage(user("hi"));
    const file = sm.getSessionFile() as string;
    // Another writer appends behind our back: our next append must refuse (conflict).
    appendFileSync(file, `${JSON.stringify({ type: "custom", id: "zz", parentId: null })}\n`);
    const types: string[] = [];
    sm.events.on("*", (type) => types.push(type));
    const leaf = sm.getLeafId();
    expect(() => sm.appendMessage(assistant("yo"))).toThrow(SessionConflictError);
    expect(types).toEqual([]);
    expect(sm.getLeafId()).toBe(leaf);
  });
});
