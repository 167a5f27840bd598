/**
 * Valid values decode as the same object, and unknown data (types, roles, blocks, fields) is
 * kept as it is (SPEC §2.6).
 */

import { decodeEntry, decodeRecord } from "@pi-sessions/core";
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import {
  CONTENT_BLOCK_CODECS,
  createEntryCodec,
  decodeHeader,
  decodeMessage,
  decodeWith,
  ENTRY_CODECS,
  MESSAGE_CODECS,
  SessionEntryCodec,
} from "../core-parts.js";
import {
  base,
  decoded,
  ENTRIES,
  image,
  isBuiltinEntry,
  issues,
  MESSAGES,
  rightOf,
  system,
  text,
  usage,
} from "./fixtures.js";

describe("registries", () => {
  it("list the wire names of SPEC §3.2–§3.4, entries in SPEC order", () => {
    expect(Object.keys(ENTRY_CODECS)).toEqual([
      "message",
      "thinking_level_change",
      "model_change",
      "compaction",
      "branch_summary",
      "custom",
      "custom_message",
      "label",
      "session_info",
      "usage",
      "context_edit",
    ]);
    expect(Object.keys(MESSAGE_CODECS).sort()).toEqual(Object.keys(MESSAGES).sort());
    expect(Object.keys(CONTENT_BLOCK_CODECS)).toEqual(["text", "image", "thinking", "toolCall"]);
  });

  it("are frozen", () => {
    expect(Object.isFrozen(ENTRY_CODECS)).toBe(true);
    expect(Object.isFrozen(MESSAGE_CODECS)).toBe(true);
  });
});

describe("valid records decode as the same object", () => {
  it.each(Object.entries(ENTRIES))("entry %s", (type, entry) => {
    const result = decodeEntry(entry);
    expect(decoded(result)).toBe(entry);
    expect(pipe(result, E.exists(isBuiltinEntry))).toBe(true);
    expect(ENTRY_CODECS[type as keyof typeof ENTRY_CODECS].is(entry)).toBe(true);
    expect(decoded(decodeRecord(entry))).toBe(entry);
  });

  it.each(Object.entries(MESSAGES))("message role %s (alone and in an entry)", (role, message) => {
    expect(decoded(decodeMessage(message))).toBe(message);
    expect(MESSAGE_CODECS[role as keyof typeof MESSAGE_CODECS].is(message)).toBe(true);
    const entry = { type: "message", ...base, message };
    expect(decoded(decodeEntry(entry))).toBe(entry);
  });

  it("a header, with and without the fields old files lack", () => {
    const full = {
      type: "session",
      version: 3,
      id: "x",
      timestamp: "t",
      cwd: "/w",
      parentSession: "/p.jsonl",
    };
    expect(decoded(decodeHeader(full))).toBe(full);
    const old = { type: "session", id: "x", provider: "anthropic", branchedFrom: "/b.jsonl" };
    expect(decoded(decodeHeader(old))).toBe(old);
    expect(decoded(decodeRecord(old))).toBe(old);
  });

  it("lenient fields: label absent/null/empty, exitCode absent/null, no firstKeptEntryId/totalTokens", () => {
    const { label: _label, ...cleared } = ENTRIES.label as Record<string, unknown>;
    for (const entry of [
      cleared,
      { ...ENTRIES.label, label: null },
      { ...ENTRIES.label, label: "" },
      { ...ENTRIES.compaction, firstKeptEntryId: undefined },
      { ...ENTRIES.usage, usage: { ...usage, totalTokens: undefined } },
    ]) {
      const json = JSON.parse(JSON.stringify(entry));
      expect(decoded(decodeEntry(json))).toBe(json);
    }
    const { exitCode: _exitCode, ...noExit } = MESSAGES.bashExecution as Record<string, unknown>;
    for (const message of [noExit, { ...MESSAGES.bashExecution, exitCode: null }]) {
      expect(decoded(decodeMessage(message))).toBe(message);
    }
  });

  it("stopReason is any string, and opaque fields may hold anything", () => {
    const m = { ...MESSAGES.assistant, stopReason: "something-new", deferred: [1, "x"] };
    expect(decoded(decodeMessage(m))).toBe(m);
    for (const value of [null, 1, "s", [1], { a: { b: [] } }]) {
      const custom = { ...ENTRIES.custom, data: value };
      expect(decoded(decodeEntry(custom))).toBe(custom);
      const result = { ...MESSAGES.toolResult, details: value };
      expect(decoded(decodeMessage(result))).toBe(result);
    }
  });
});

describe("unknown data is kept (SPEC §2.6)", () => {
  it("an unknown entry type decodes as an unknown entry and round-trips", () => {
    const entry = { type: "bookmark_v9", ...base, payload: { deep: [1, { x: "y" }] } };
    const before = structuredClone(entry);
    const result = decodeEntry(entry);
    expect(decoded(result)).toBe(entry);
    expect(pipe(result, E.exists(isBuiltinEntry))).toBe(false);
    expect(JSON.stringify(entry)).toBe(JSON.stringify(before));
    expect(SessionEntryCodec.is(entry)).toBe(true);
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty", ""])(
    "type %j is an unknown entry, not an Object.prototype member",
    (type) => {
      const entry = JSON.parse(JSON.stringify({ ...base, type }));
      expect(decoded(decodeEntry(entry))).toBe(entry);
    },
  );

  it("an unknown entry still needs the common fields", () => {
    const list = issues(decodeEntry({ type: "future", parentId: 1, timestamp: "t" }));
    expect(list.map((i) => i.path)).toEqual(["id", "parentId"]);
  });

  it("unknown roles and blocks pass through unchanged", () => {
    const hook = { role: "hookMessage", anything: 1 };
    expect(decoded(decodeMessage(hook))).toBe(hook);
    const odd = { type: "audio", data: 5, whatever: [] };
    for (const message of [
      { ...MESSAGES.user, content: [text, odd] },
      { ...MESSAGES.assistant, content: [odd] },
      { ...MESSAGES.toolResult, content: [odd, image] },
      { ...system, content: [odd] },
    ]) {
      const entry = { type: "message", ...base, message };
      const before = structuredClone(entry);
      expect(decoded(decodeEntry(entry))).toBe(entry);
      expect(entry).toEqual(before);
    }
  });

  it("extra fields everywhere are kept, and the decoded value is the input", () => {
    const entry = {
      type: "message",
      ...base,
      extraOnEntry: { a: 1 },
      message: {
        ...MESSAGES.assistant,
        extraOnMessage: true,
        usage: { ...usage, extraOnUsage: 1, cost: { ...usage.cost, extraOnCost: "c" } },
        content: [{ ...text, extraOnBlock: [null] }],
      },
    };
    const before = structuredClone(entry);
    const result = decodeEntry(entry);
    expect(decoded(result)).toBe(entry);
    expect(rightOf(result)).toEqual(before);
    const header = { type: "session", version: 3, id: "x", timestamp: "t", cwd: "/", future: 1 };
    expect(decoded(decodeHeader(header))).toBe(header);
  });

  it("a plugin registry adds a type and keeps the rest open", () => {
    const PinEntryCodec = t.intersection([
      t.type({ type: t.literal("pin"), id: t.string, parentId: t.union([t.string, t.null]) }),
      t.type({ timestamp: t.string, targetId: t.string }),
    ]);
    const codec = createEntryCodec({ ...ENTRY_CODECS, pin: PinEntryCodec });
    const pin = { type: "pin", ...base, targetId: "x" };
    expect(decoded(decodeWith(codec, pin))).toBe(pin);
    expect(issues(decodeWith(codec, { ...pin, targetId: 1 })).map((i) => i.path)).toEqual([
      "targetId",
    ]);
    const other = { type: "other", ...base };
    expect(decoded(decodeWith(codec, other))).toBe(other);
    expect(decoded(decodeWith(codec, ENTRIES.label))).toBe(ENTRIES.label);
  });
});
