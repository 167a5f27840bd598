/**
 * The law behind "a plugin's wire type persists like a built-in": any sequence of built-in and
 * `bookmark` appends (branching between them), written through the file store or kept in
 * memory, reloads to the same entries, with the plugin installed and without it — nothing
 * dropped, nothing reordered, each bookmark read by its view with the plugin and kept as an
 * unknown type without it.
 */
import { readFileSync } from "node:fs";
import { createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import { installPlugins, renderBranch } from "@pi-sessions/plugins";
import { fcOptions, fcRuns, tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bookmark, bookmarks } from "./bookmark-plugin.js";
import { assistant, user } from "./plugin-fixtures.js";

/** One step; `at` picks an existing entry (modulo their count) for targets and branching. */
type Op =
  | { kind: "user" | "assistant" | "name" | "thinking"; text: string }
  | { kind: "bookmark" | "label" | "branch"; at: number; text: string }
  | { kind: "custom"; text: string };

const text = fc.string({ maxLength: 12 });
const at = fc.nat({ max: 1000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("user" as const), text }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("assistant" as const), text }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("bookmark" as const), at, text }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant("label" as const), at, text }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("branch" as const), at, text }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("name" as const), text }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("thinking" as const), text }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("custom" as const), text }), weight: 1 },
);

/** Applies `ops` after a first user message; returns the ids of the bookmarks appended. */
function apply(sm: SessionManager, ops: readonly Op[]): string[] {
  const host = installPlugins(sm, [bookmarks]);
  sm.appendMessage(user("start"));
  const marks: string[] = [];
  for (const o of ops) {
    const ids = sm.getEntries().map((e) => e.id);
    const pick = "at" in o ? (ids[o.at % ids.length] as string) : "";
    if (o.kind === "user") sm.appendMessage(user(o.text));
    else if (o.kind === "assistant") sm.appendMessage(assistant(o.text));
    else if (o.kind === "bookmark") {
      marks.push(host.appendWireEntry(bookmark, { targetId: pick, note: o.text }));
    } else if (o.kind === "label") sm.appendLabelChange(pick, o.text || undefined);
    else if (o.kind === "branch") sm.branch(pick);
    else if (o.kind === "name") sm.appendSessionInfo(o.text);
    else if (o.kind === "thinking") sm.appendThinkingLevelChange(o.text || "high");
    else sm.appendCustomEntry("note", { text: o.text });
  }
  return marks;
}

/** What a reload must equal: every entry and the session's loading verdict. */
function expectSame(reloaded: SessionManager, sm: SessionManager, marks: readonly string[]): void {
  expect(reloaded.getEntries()).toEqual(sm.getEntries());
  expect(reloaded.getLoadDiagnostics()).toEqual([]);
  const kept = reloaded.getEntries().filter((e) => e.type === ("bookmark" as string));
  expect(kept.map((e) => e.id)).toEqual(marks);
}

/** Each bookmark reads through its view with the plugin, as an unknown type without it. */
function expectReadable(reloaded: SessionManager, marks: readonly string[], installed: boolean) {
  if (installed) installPlugins(reloaded, [bookmarks]);
  for (const id of marks) {
    const shown = renderBranch(reloaded, id, { format: "text", branchPoints: false });
    const last = shown.slice(shown.lastIndexOf(installed ? "Bookmark on" : "Entry of unknown"));
    expect(last.startsWith(installed ? "Bookmark on" : "Entry of unknown type bookmark")).toBe(
      true,
    );
    expect(last).toContain(`[${id}]`);
  }
}

describe("a plugin's wire type reloads like a built-in", () => {
  it(`through the file store, with and without the plugin (numRuns ${fcRuns(100)})`, () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 14 }), (ops) => {
        const dir = tempDir("pi-sessions-wire-reload-");
        const env = createDeterministicEnv({ stepMs: 1000 });
        const sm = SessionManager.create("/w", dir, { env });
        const marks = apply(sm, ops);
        sm.appendMessage(assistant("written")); // the file exists from the first answer on
        const file = sm.getSessionFile() as string;
        const lines = readFileSync(file, "utf8").trimEnd().split("\n");
        expect(lines.length).toBe(sm.getEntries().length + 1);
        for (const installed of [false, true]) {
          const reloaded = SessionManager.open(file);
          expectSame(reloaded, sm, marks);
          expectReadable(reloaded, marks, installed);
        }
      }),
      fcOptions(100),
    );
  });

  it(`in memory, as JSONL and as records, with and without the plugin (numRuns ${fcRuns(200)})`, () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 14 }), (ops) => {
        const sm = SessionManager.inMemory("/w", { env: createDeterministicEnv({ stepMs: 1000 }) });
        const marks = apply(sm, ops);
        const records = [sm.getHeader(), ...sm.getEntries()];
        const jsonl = records.map((r) => JSON.stringify(r)).join("\n");
        for (const installed of [false, true]) {
          const fromText = SessionManager.fromJsonl(jsonl, "/w");
          expectSame(fromText, sm, marks);
          expectReadable(fromText, marks, installed);
          const fromRecords = SessionManager.inMemory("/w", {}, records as never);
          expectSame(fromRecords, sm, marks);
          expectReadable(fromRecords, marks, installed);
        }
      }),
      fcOptions(200),
    );
  });
});
