/**
 * `appendDefinedEntry`: the one append of an entry type of one's own (made by
 * `defineEntryType`). It fills what every append fills, checks the line against the
 * definition's codec before anything changes, and refuses what is not such a type.
 */
import { readFileSync } from "node:fs";
import {
  createDeterministicEnv,
  defineEntryType,
  ENTRY_TYPES,
  EntryRejectedError,
  entryCodec,
  isDefinedEntryType,
  ownEntryTypeProblem,
  type SessionEntry,
  SessionManager,
} from "@pi-sessions/core";
import { tempDir } from "@pi-sessions/test-utils";
import * as t from "io-ts";
import { describe, expect, it, vi } from "vitest";
import { assistant, fresh, reload, user } from "./fixtures.js";

const pin = defineEntryType({
  type: "pin",
  codec: entryCodec("pin", { targetId: t.string, weight: t.number }, { tag: t.string }),
  references: ["targetId"],
  searchText: null,
  role: "none",
});

/** The thrown value of `fn` (the test fails if it returns). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("SessionManager.appendDefinedEntry", () => {
  it("writes { type, id, parentId, timestamp, ...fields } at the leaf, and emits it", () => {
    const sm = fresh();
    const q = sm.appendMessage(user("hi"));
    const seen: SessionEntry[] = [];
    sm.events.on("entryAppended", ({ entry }) => seen.push(entry));
    const id = sm.appendDefinedEntry(pin, { targetId: q, weight: 2 });
    const entry = sm.getEntry(id);
    expect(Object.keys(entry ?? {})).toEqual([
      "type",
      "id",
      "parentId",
      "timestamp",
      "targetId",
      "weight",
    ]);
    expect(entry).toMatchObject({ type: "pin", parentId: q, targetId: q, weight: 2 });
    expect(sm.getLeafId()).toBe(id);
    expect(seen.map((e) => e.id)).toEqual([id]);
    expect(reload(sm).getEntries()).toEqual(sm.getEntries());
  });

  it("refuses a line its codec rejects, with every path, and changes nothing (file store)", () => {
    const dir = tempDir("pi-sessions-defined-");
    const sm = SessionManager.create("/w", dir, { env: createDeterministicEnv() });
    const q = sm.appendMessage(user("hi"));
    sm.appendMessage(assistant("ok"));
    const file = sm.getSessionFile() as string;
    const bytes = readFileSync(file, "utf8");
    const entries = sm.getEntries();
    const error = thrown(() => sm.appendDefinedEntry(pin, { targetId: 3, weight: "x" } as never));
    expect(error).toBeInstanceOf(EntryRejectedError);
    expect((error as EntryRejectedError).issues.map((i) => i.path)).toEqual(["targetId", "weight"]);
    expect((error as Error).message).toBe(
      'Entry of type "pin" rejected by entry type "pin": it does not match its definition: targetId: expected string, got number 3; weight: expected number, got "x"',
    );
    // What JSON cannot carry is checked as the line says it: undefined is dropped, so missing.
    const dropped = thrown(() =>
      sm.appendDefinedEntry(pin, { targetId: q, weight: undefined } as never),
    );
    expect((dropped as EntryRejectedError).issues.map((i) => i.path)).toEqual(["weight"]);
    expect(readFileSync(file, "utf8")).toBe(bytes);
    expect(sm.getEntries()).toEqual(entries);
    const id = sm.appendDefinedEntry(pin, { targetId: q, weight: 1 });
    expect(SessionManager.open(file).getEntry(id)).toEqual(sm.getEntry(id));
  });

  it("a definition made by another copy of core is recognised (a plugin's core beside a bundled CLI's)", async () => {
    // A second instance of the module, as a second copy of the package loaded in the process.
    vi.resetModules();
    const other = await import("../../src/schema/entry-types.js");
    expect(other.defineEntryType).not.toBe(defineEntryType);
    const theirs = other.defineEntryType({
      type: "stamp",
      codec: entryCodec("stamp", { at: t.string }),
      references: [],
      searchText: null,
      role: "none",
    });
    expect(isDefinedEntryType(theirs)).toBe(true);
    expect(ownEntryTypeProblem(theirs)).toBeUndefined();
    const sm = fresh();
    sm.appendMessage(user("hi"));
    const id = sm.appendDefinedEntry(theirs, { at: "noon" });
    expect(sm.getEntry(id)).toMatchObject({ type: "stamp", at: "noon" });
    expect(other.isDefinedEntryType(pin)).toBe(true);
  });

  it("no entry type may take the header's type: a line of it would be read back as a header", () => {
    expect(() =>
      defineEntryType({
        type: "session",
        codec: entryCodec("session", { note: t.string }),
        references: [],
        searchText: null,
        role: "none",
      }),
    ).toThrow(`entry type "session" is the header's type: a line of it is read as a header`);
  });

  it("refuses a definition defineEntryType did not make, a built-in, and filled-in fields", () => {
    const sm = fresh();
    sm.appendMessage(user("hi"));
    const before = sm.getEntries();
    expect(() => sm.appendDefinedEntry({ ...pin }, { targetId: "a", weight: 1 })).toThrow(
      'entry type "pin": declare it with defineEntryType',
    );
    expect(() => sm.appendDefinedEntry(ENTRY_TYPES.label as never, {} as never)).toThrow(
      'entry type "label" is built in: append it with its own method',
    );
    for (const key of ["type", "id", "parentId", "timestamp"]) {
      const fields = { targetId: "a", weight: 1, [key]: "mine" };
      expect(() => sm.appendDefinedEntry(pin, fields)).toThrow(
        `"${key}" is filled in by the append`,
      );
    }
    expect(() => sm.appendDefinedEntry(pin, null as never)).toThrow("must be an object");
    expect(sm.getEntries()).toEqual(before);
  });

  it("entryCodec: the literal type, the common fields, its own, optional ones, others kept", () => {
    const base = { type: "pin", id: "p", parentId: null, timestamp: "t", targetId: "a", weight: 1 };
    const ok = pin.codec.decode({ ...base, tag: "x", extra: [1] });
    expect(ok).toEqual({ _tag: "Right", right: { ...base, tag: "x", extra: [1] } });
    for (const bad of [
      { ...base, type: "pen" },
      { ...base, parentId: 3 },
      { ...base, weight: "1" },
      { ...base, tag: 2 },
      { type: "pin", id: "p", parentId: null, targetId: "a", weight: 1 },
    ]) {
      expect(pin.codec.decode(bad)._tag).toBe("Left");
    }
  });

  it("passes a strict manager's schema guard (an unknown type to the built-in codecs)", () => {
    const sm = SessionManager.inMemory("/w", { strict: true });
    const q = sm.appendMessage(user("hi"));
    const id = sm.appendDefinedEntry(pin, { targetId: q, weight: 0 });
    expect(sm.getEntry(id)?.type).toBe("pin");
  });
});
