/**
 * A small test plugin: a versioned `tally` entry type (v1 `{ n }` → v2 `{ v: 2, amount, tag }`),
 * a `note` custom message type, a branch reducer that counts its calls, and a projection.
 */
import {
  createDeterministicEnv,
  defineProjection,
  type SessionEntry,
  SessionManager,
} from "@pi-sessions/core";
import {
  customEntryType,
  customMessageType,
  definePlugin,
  type ItemOf,
} from "@pi-sessions/plugins";
import * as t from "io-ts";

// fast-check run settings (`FC_RUNS`, `FC_SEED`, `FC_PATH`), under the name the suites use.
export { fcOptions as fcParams } from "@pi-sessions/test-utils";

/** Tally data of the current version (v2). */
export const TallyV2 = t.type({ amount: t.number, tag: t.string }, "TallyV2");

/** `tally` entries: v1 stored `{ n }`; v2 stores `{ v: 2, amount, tag }`. */
export const tally = customEntryType({
  customType: "tally",
  data: TallyV2,
  version: 2,
  upcasters: {
    1: (old) => {
      const n = (old as { n?: unknown } | null)?.n;
      if (n === "explode") throw new Error("cannot upcast an explosion");
      return { amount: n, tag: "legacy" };
    },
  },
  render: (value) => `tally ${value.amount} (${value.tag})`,
});

/** `note` custom messages: details `{ author }`, any pi content. */
export const note = customMessageType({
  customType: "note",
  details: t.type({ author: t.string }, "NoteDetails"),
  render: (value) => `note by ${value.details.author}`,
});

/** The reducer's state: branch totals. */
export interface TallyState {
  readonly total: number;
  readonly tallies: number;
  readonly notes: number;
  readonly lastTag: string | undefined;
}

/** Counts every reducer `apply` call (to check appends at the leaf cost one call each). */
export const calls = { apply: 0 };

/** The reducer, exported so tests can fold with it independently. */
export function reduceTally(s: TallyState, item: ItemOf<typeof tally | typeof note>): TallyState {
  calls.apply++;
  if (item.kind === "custom") {
    return {
      ...s,
      total: s.total + item.value.amount,
      tallies: s.tallies + 1,
      lastTag: item.value.tag,
    };
  }
  return { ...s, notes: s.notes + 1 };
}

/** Counts `tally` entries in the whole file (leaf-independent). */
export const tallyCount = defineProjection<number>({
  name: "tally-count",
  init: () => 0,
  apply: (n, e: SessionEntry) => (e.type === "custom" && e.customType === "tally" ? n + 1 : n),
});

/** The test plugin. */
export const tallyPlugin = definePlugin({
  name: "tally",
  entryTypes: [tally],
  messageTypes: [note],
  branchState: {
    init: (): TallyState => ({ total: 0, tallies: 0, notes: 0, lastTag: undefined }),
    apply: reduceTally,
  },
  projections: [tallyCount],
});

/** A fresh in-memory manager with reproducible ids. */
export function freshManager(seed = 1): SessionManager {
  return SessionManager.inMemory("/tmp/plugins", {
    env: createDeterministicEnv({ seed, stepMs: 1000 }),
  });
}

/** A user message. */
export const user = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });

/** An assistant message (flushes a pending persisted session). */
export const assistant = (text: string) => ({
  role: "assistant" as const,
  content: [{ type: "text" as const, text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-x",
  usage: {
    input: 1,
    output: 1,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 2,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  },
  stopReason: "stop" as const,
  timestamp: 2,
});
