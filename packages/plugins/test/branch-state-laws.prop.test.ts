/**
 * I6 for plugins: on random operation sequences (valid and invalid appends, old-version data,
 * leaf moves, resets, summaries, reads at random moments), the host's incremental branch
 * state always equals the pure fold of the current branch and the replay of the saved
 * session from scratch; plugin projections — the diagnostics of invalid data stored before
 * the install included — equal their replay.
 */
import {
  EntryRejectedError,
  type FileEntry,
  replayProjection,
  replayState,
  SessionManager,
} from "@pi-sessions/core";
import {
  branchStateOf,
  createRegistry,
  decodePayload,
  foldBranchState,
  installPlugins,
  type PluginHost,
  pluginDiagnostics,
  pluginProjections,
} from "@pi-sessions/plugins";
import fc from "fast-check";
import { isLeft } from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import {
  fcParams,
  freshManager,
  note,
  tally,
  tallyCount,
  tallyPlugin,
  user,
} from "./plugin-fixtures.js";

type Op =
  | { kind: "tally"; amount: number; tag: string }
  | { kind: "tallyV1"; n: number }
  | { kind: "note"; author: string }
  | { kind: "invalid"; which: number }
  | { kind: "message" }
  | { kind: "foreign" }
  | { kind: "branch"; pick: number }
  | { kind: "reset" }
  | { kind: "summary"; pick: number }
  | { kind: "read" };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("tally"),
    amount: fc.integer({ min: -5, max: 50 }),
    tag: fc.string({ maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant("tallyV1"), n: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ kind: fc.constant("note"), author: fc.constantFrom("ana", "bo") }),
  fc.record({ kind: fc.constant("invalid"), which: fc.nat(3) }),
  fc.record({ kind: fc.constant("message") }),
  fc.record({ kind: fc.constant("foreign") }),
  fc.record({ kind: fc.constant("branch"), pick: fc.nat() }),
  fc.record({ kind: fc.constant("reset") }),
  fc.record({ kind: fc.constant("summary"), pick: fc.nat() }),
  fc.record({ kind: fc.constant("read") }),
);

/** Invalid payloads the guard must refuse. */
const INVALID: Array<(sm: SessionManager) => unknown> = [
  (sm) => sm.appendCustomEntry("tally", { v: 2, amount: "x", tag: "t" }),
  (sm) => sm.appendCustomEntry("tally", { n: "explode" }),
  (sm) => sm.appendCustomEntry("tally", { v: 3, amount: 1, tag: "t" }),
  (sm) => sm.appendCustomMessageEntry("note", "c", true, { author: 1 }),
];

/** Entries a fresh read through the plugin's own types refuses (an independent count). */
function countInvalid(sm: SessionManager): number {
  return sm.getEntries().filter((e) => {
    if (e.type === "custom" && e.customType === "tally") {
      return isLeft(decodePayload(tally, e.data));
    }
    if (e.type === "custom_message" && e.customType === "note") {
      return isLeft(decodePayload(note, { content: e.content, details: e.details }));
    }
    return false;
  }).length;
}

/** Runs one op; without a host (not installed yet) appends go straight to the manager. */
function apply(sm: SessionManager, host: PluginHost | undefined, o: Op): void {
  const ids = sm.getEntries().map((e) => e.id);
  const target = (n: number) => ids[n % Math.max(ids.length, 1)];
  switch (o.kind) {
    case "tally":
      if (host) host.appendCustom(tally, { amount: o.amount, tag: o.tag });
      else sm.appendCustomEntry("tally", { v: 2, amount: o.amount, tag: o.tag });
      return;
    case "tallyV1":
      sm.appendCustomEntry("tally", { n: o.n });
      return;
    case "note":
      sm.appendCustomMessageEntry("note", "n", true, { author: o.author });
      return;
    case "invalid": {
      if (!host) {
        INVALID[o.which]?.(sm); // nothing checks before the install: stored, reported later
        return;
      }
      const before = sm.getState();
      expect(() => INVALID[o.which]?.(sm)).toThrow(EntryRejectedError);
      expect(sm.getState()).toBe(before);
      return;
    }
    case "message":
      sm.appendMessage(user("m"));
      return;
    case "foreign":
      sm.appendCustomEntry("tally-lookalike", { amount: "not checked" });
      return;
    case "branch": {
      const id = target(o.pick);
      if (id !== undefined) sm.branch(id);
      return;
    }
    case "reset":
      sm.resetLeaf();
      return;
    case "summary":
      sm.branchWithSummary(target(o.pick) ?? null, "s");
      return;
    case "read":
      host?.branchState(tallyPlugin);
      return;
  }
}

describe("plugin fold laws (I6)", () => {
  it(`incremental branch state = pure fold of the branch = replay from scratch (${fcParams(300).numRuns} runs)`, () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.nat(40), (ops, installAt) => {
        const sm = freshManager(3);
        let host: PluginHost | undefined;
        ops.forEach((o, i) => {
          if (i === installAt) host = installPlugins(sm, [tallyPlugin]);
          apply(sm, host, o);
          if (host) {
            const pure = foldBranchState(tallyPlugin, sm.getBranch());
            expect(host.branchState(tallyPlugin)).toEqual(pure);
          }
        });
        host ??= installPlugins(sm, [tallyPlugin]);
        const incremental = host.branchState(tallyPlugin);
        // Replay 1: a bare fold of the log with the plugin projections.
        const registry = createRegistry([tallyPlugin]);
        const state = replayState(sm.getHeader(), sm.getEntries(), pluginProjections(registry));
        expect(branchStateOf(tallyPlugin, state, sm.getLeafId())).toEqual(incremental);
        const diagnostics = pluginDiagnostics(state);
        // Replay 2: a new manager loaded from the records, leaf restored, then installed.
        const records = [sm.getHeader(), ...sm.getEntries()] as FileEntry[];
        const loaded = SessionManager.inMemory("/tmp/plugins", {}, records);
        const leaf = sm.getLeafId();
        if (leaf === null) loaded.resetLeaf();
        else loaded.branch(leaf);
        const reloaded = installPlugins(loaded, registry);
        expect(reloaded.branchState(tallyPlugin)).toEqual(incremental);
        // Projections: installed late, then folded = replay over the whole log.
        const replayed = replayProjection(tallyCount, sm.getEntries());
        expect(host.projectionState(tallyCount)).toBe(replayed);
        expect(reloaded.projectionState(tallyCount)).toBe(replayed);
        // Invalid data stored before the install: the same reports incrementally and replayed.
        expect(host.diagnostics()).toEqual(diagnostics);
        expect(reloaded.diagnostics()).toEqual(diagnostics);
        expect(diagnostics.length).toBe(countInvalid(sm));
      }),
      fcParams(300),
    );
  });
});
