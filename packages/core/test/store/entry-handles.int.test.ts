/**
 * The entries a columns load hands out before decoding them (a large file: bodies decoded when
 * read). What pi reads at start — every entry's type, every message's role, the last few
 * bodies — decodes only those few; everything else a caller can observe is the line's JSON
 * value, and the same object every time.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager, type SessionMessageEntry } from "@pi-sessions/core";
import { runWithEnv, tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { COLUMNS_FROM_BYTES_ENV } from "../core-parts.js";
import { assistant, user } from "../persist/helpers.js";

/** A written session with a system message, prompts, answers and a compaction. */
function sessionFile(): string {
  const sm = SessionManager.create("/tmp/handles", tempDir());
  sm.appendMessage({ role: "system", content: "tools: read", timestamp: 1 } as never);
  for (let i = 0; i < 40; i++) {
    sm.appendMessage(user(`question ${i}`));
    sm.appendMessage(assistant(`answer ${i}`));
  }
  const keep = sm.getEntries().at(-4)?.id as string;
  sm.appendCompaction("summary", keep, 1000);
  sm.appendMessage(user("after the compaction"));
  sm.close();
  return sm.getSessionFile() as string;
}

/** Opens as columns whatever the file's size. */
function openColumns(file: string): SessionManager {
  return runWithEnv(COLUMNS_FROM_BYTES_ENV, "0", () => SessionManager.open(file));
}

/** How many entries the manager's log holds decoded. */
const decoded = (sm: SessionManager) =>
  sm.getState().log.store.slots.filter((s) => typeof s === "object").length;

describe("entries handed out before they are decoded", () => {
  it("answer pi's start (types, roles, the last bodies) decoding only what it reads", () => {
    const sm = openColumns(sessionFile());
    const branch = sm.getBranch();
    // pi's _restoreToolsFromTranscript: every message's role, the system ones' bodies.
    const systems = branch.flatMap((e) =>
      e.type === "message" && (e as SessionMessageEntry).message.role === "system"
        ? [(e as SessionMessageEntry).message]
        : [],
    );
    expect(systems.map((m) => (m as { content?: unknown }).content)).toEqual(["tools: read"]);
    expect(decoded(sm)).toBe(1);
    // pi's getBranchSelection: back from the leaf to the last assistant's provider and model.
    const last = branch.findLast(
      (e) => e.type === "message" && (e as SessionMessageEntry).message.role === "assistant",
    );
    expect((last as SessionMessageEntry).message.role).toBe("assistant");
    expect(decoded(sm)).toBe(1);
    expect(typeof ((last as SessionMessageEntry).message as { provider?: unknown }).provider).toBe(
      "string",
    );
    expect(decoded(sm)).toBe(2);
    // The context: what is after the compaction, decoded; the rest stays on disk.
    const context = sm.buildSessionContext();
    expect(structuredClone(context.messages)).toEqual(context.messages);
    expect(decoded(sm)).toBeLessThan(12);
  });

  it("are the line's JSON value every way a caller looks, and the same objects every time", () => {
    const file = sessionFile();
    const sm = openColumns(file);
    const lines = readFileSync(file, "utf8").trim().split("\n").slice(1);
    const entries = sm.getEntries();
    const message = entries[2] as SessionMessageEntry;
    const role = message.message.role;
    expect(sm.getEntry(message.id)).toBe(message);
    expect(message.message).toBe(message.message);
    expect(role).toBe("assistant");
    expect("content" in message.message).toBe(true);
    expect(Object.keys(message.message)).toEqual(
      Object.keys(JSON.parse(lines[2] as string).message),
    );
    expect({ ...message.message }).toEqual(JSON.parse(lines[2] as string).message);
    // After decoding, the same stand-ins: identity holds.
    expect((sm.getEntry(message.id) as SessionMessageEntry).message).toBe(message.message);
    expect(entries.map((e) => JSON.stringify(e))).toEqual(lines);
    expect(JSON.parse(JSON.stringify(sm.getTree()))[0].entry).toEqual(
      JSON.parse(lines[0] as string),
    );
  });

  it("reopen, append and fork exactly as a whole load does", () => {
    const file = sessionFile();
    const sm = openColumns(file);
    sm.appendMessage(user("one more"));
    const id = sm.getLeafId() as string;
    sm.close();
    const again = openColumns(file);
    expect(again.getLeafId()).toBe(id);
    expect(again.getBranch().map((e) => e.id)).toEqual(
      SessionManager.open(file)
        .getBranch()
        .map((e) => e.id),
    );
    const fork = SessionManager.forkFrom(file, "/tmp/handles", join(tempDir(), "forks"));
    expect(fork.getEntries().map((e) => JSON.stringify(e))).toEqual(
      again.getEntries().map((e) => JSON.stringify(e)),
    );
  });
});
