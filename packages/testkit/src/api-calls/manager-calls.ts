/**
 * The one definition of every SessionManager call that changes a session, from which both the
 * model-based commands (`model/run-model.ts`) and the differential operations against the
 * reference (`differential/ops.ts`) are derived: each call's name, its weight in random
 * sequences, the entry type it appends, an arbitrary of its arguments as plain data (targets
 * by index, since ids are random) and how it is invoked on any SessionManager-shaped object.
 * A call added here becomes a differential op at once; the model's command table
 * (`satisfies` every call name) then fails to compile until the model predicts it.
 */
import type { SessionEntryType } from "@pi-sessions/core";
import fc from "fast-check";
import * as A from "./call-args.js";
import type { JsonObject, SessionManagerLike } from "./manager-api.js";

/** Optional details / fromHook / usage arguments of compactions and branch summaries. */
export interface Extras {
  details?: unknown;
  fromHook?: boolean | undefined;
  usage?: JsonObject | undefined;
}

/**
 * A compaction's first kept entry: a target, or the literal `null`, `""` or `undefined` the
 * implementations must treat alike (the compaction keeps none and names itself).
 */
export type KeepTarget = A.Target | null | "" | undefined;

/** How a call's target becomes an id on one side (the caller resolves indexes to ids). */
export type ResolveTarget = (target: A.Target) => string;

/** One mutating call: `Args` is its arguments as plain data, `T` the entry type it appends. */
export interface ManagerCall<Args extends object, T extends SessionEntryType | null> {
  /** Relative frequency in random sequences; appends dominate so sessions grow. */
  readonly weight: number;
  /** The entry type a successful call appends, or null (it moves the leaf or copies). */
  readonly appends: T;
  /** Its arguments, small value sets so counterexamples stay short. */
  readonly args: fc.Arbitrary<Args>;
  /** Calls it on `sm` with `args` (already copied), targets resolved by `id`. */
  invoke(sm: SessionManagerLike, args: Args, id: ResolveTarget): unknown;
}

/** Types one call: `Args` is what `invoke` takes, which the arbitrary must produce. */
const call = <Args extends object, T extends SessionEntryType | null>(
  c: Omit<ManagerCall<Args, T>, "args"> & { readonly args: fc.Arbitrary<NoInfer<Args>> },
): ManagerCall<Args, T> => c;

/**
 * A record of every key of `model`. Written out because fast-check infers a record's required
 * keys from the expected type, and an argument type (what `invoke` takes) would make them all
 * optional.
 */
const args = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<T> =>
  fc.record<T>(model) as fc.Arbitrary<T>;

const keepArb: fc.Arbitrary<KeepTarget> = fc.oneof(
  { arbitrary: A.targetArb, weight: 8 },
  { arbitrary: fc.constant(null), weight: 2 },
  { arbitrary: fc.constantFrom("" as const, undefined), weight: 1 },
);
const customTypeArb = fc.constantFrom("ext", "x");
const providerArb = fc.constantFrom("openai", "anthropic");
const modelIdArb = fc.constantFrom("m1", "m2");
const resolveKeep = (keep: KeepTarget, id: ResolveTarget): string | null =>
  typeof keep === "object" && keep !== null ? id(keep) : (keep as string | null);

/** Every call that changes a session, by method name (SPEC §5.4, §7.2–§7.4, §9). */
export const MANAGER_CALLS = {
  appendMessage: call({
    weight: 8,
    appends: "message",
    args: args({ message: A.messageArb }),
    invoke: (sm, a: { message: JsonObject }) => sm.appendMessage(a.message),
  }),
  appendThinkingLevelChange: call({
    weight: 1,
    appends: "thinking_level_change",
    args: args({ level: fc.constantFrom("off", "high", "") }),
    invoke: (sm, a: { level: string }) => sm.appendThinkingLevelChange(a.level),
  }),
  appendModelChange: call({
    weight: 1,
    appends: "model_change",
    args: args({ provider: providerArb, modelId: modelIdArb }),
    invoke: (sm, a: { provider: string; modelId: string }) =>
      sm.appendModelChange(a.provider, a.modelId),
  }),
  appendCompaction: call({
    weight: 2,
    appends: "compaction",
    args: args({
      summary: A.textArb,
      keep: keepArb,
      tokens: fc.nat(99_999),
      extras: A.extrasArb,
    }),
    invoke: (sm, a: { summary: string; keep: KeepTarget; tokens: number; extras: Extras }, id) =>
      sm.appendCompaction(
        a.summary,
        resolveKeep(a.keep, id),
        a.tokens,
        a.extras.details,
        a.extras.fromHook,
        a.extras.usage,
      ),
  }),
  appendCustomEntry: call({
    weight: 1,
    appends: "custom",
    args: args({ customType: customTypeArb, data: A.dataArb }),
    invoke: (sm, a: { customType: string; data: unknown }) =>
      sm.appendCustomEntry(a.customType, a.data),
  }),
  appendCustomMessageEntry: call({
    weight: 1,
    appends: "custom_message",
    args: args({
      customType: customTypeArb,
      content: A.customContentArb,
      display: fc.boolean(),
      details: A.dataArb,
    }),
    invoke: (sm, a: { customType: string; content: unknown; display: boolean; details: unknown }) =>
      sm.appendCustomMessageEntry(a.customType, a.content, a.display, a.details),
  }),
  appendSessionInfo: call({
    weight: 1,
    appends: "session_info",
    args: args({ name: A.sessionNameArb }),
    invoke: (sm, a: { name: string }) => sm.appendSessionInfo(a.name),
  }),
  appendLabelChange: call({
    weight: 2,
    appends: "label",
    args: args({ target: A.targetArb, label: A.labelArb }),
    invoke: (sm, a: { target: A.Target; label: string | null | undefined }, id) =>
      sm.appendLabelChange(id(a.target), a.label),
  }),
  appendUsage: call({
    weight: 1,
    appends: "usage",
    args: fc.record(
      {
        kind: fc.constantFrom("cache_warm", "future-kind"),
        provider: providerArb,
        model: modelIdArb,
        usage: A.usageArb,
        note: fc.constantFrom(undefined, "", "warm"),
      },
      { requiredKeys: ["kind", "provider", "model", "usage"] },
    ),
    invoke: (
      sm,
      a: { kind: string; provider: string; model: string; usage: JsonObject; note?: string },
    ) => sm.appendUsage(a.kind, a.provider, a.model, a.usage, a.note),
  }),
  appendContextEdit: call({
    weight: 2,
    appends: "context_edit",
    args: args({ target: A.targetArb, replacement: A.replacementArb }),
    invoke: (sm, a: { target: A.Target; replacement: unknown }, id) =>
      sm.appendContextEdit(id(a.target), a.replacement),
  }),
  branch: call({
    weight: 2,
    appends: null,
    args: args({ target: A.targetArb }),
    invoke: (sm, a: { target: A.Target }, id) => sm.branch(id(a.target)),
  }),
  resetLeaf: call({
    weight: 1,
    appends: null,
    args: fc.constant({}),
    invoke: (sm, _a: object) => sm.resetLeaf(),
  }),
  branchWithSummary: call({
    weight: 2,
    appends: "branch_summary",
    args: args({
      target: fc.option(A.targetArb, { nil: null }),
      summary: A.textArb,
      extras: A.extrasArb,
    }),
    invoke: (sm, a: { target: A.Target | null; summary: string; extras: Extras }, id) =>
      sm.branchWithSummary(
        a.target === null ? null : id(a.target),
        a.summary,
        a.extras.details,
        a.extras.fromHook,
        a.extras.usage,
      ),
  }),
  createBranchedSession: call({
    weight: 1,
    appends: null,
    args: args({ target: A.targetArb }),
    invoke: (sm, a: { target: A.Target }, id) => sm.createBranchedSession(id(a.target)),
  }),
} satisfies Partial<Record<keyof SessionManagerLike, ManagerCall<object, SessionEntryType | null>>>;

/** The name of a call that changes a session. */
export type CallName = keyof typeof MANAGER_CALLS;

/** The arguments of call `K` as plain data. */
export type CallArgs<K extends CallName> =
  (typeof MANAGER_CALLS)[K] extends ManagerCall<infer Args, SessionEntryType | null> ? Args : never;

/** One call with its arguments, as data fast-check can print and shrink. */
export type CallOf<K extends CallName = CallName> = {
  [N in K]: { op: N } & CallArgs<N>;
}[K];

/**
 * The built-in entry types no call appends: must stay `never`, so a new entry type fails to
 * compile here until a call appends it (and, through the call, the model predicts it and the
 * differential check compares it with the reference).
 */
type UnappendedEntryType = Exclude<
  SessionEntryType,
  (typeof MANAGER_CALLS)[CallName]["appends"] & string
>;
const EVERY_ENTRY_TYPE_APPENDED: [UnappendedEntryType] extends [never]
  ? true
  : { missingAppendFor: UnappendedEntryType } = true;
void EVERY_ENTRY_TYPE_APPENDED;

/** The call names, in table order. */
export const CALL_NAMES = Object.freeze(Object.keys(MANAGER_CALLS) as CallName[]);

/**
 * Invokes `call` on `sm` with a deep copy of its arguments, so neither side of a comparison
 * (nor the model) shares objects with the implementation.
 */
export function invokeCall<K extends CallName>(
  sm: SessionManagerLike,
  call: CallOf<K>,
  id: ResolveTarget,
): unknown {
  const { op, ...args } = structuredClone(call) as { op: K } & Record<string, unknown>;
  const definition = MANAGER_CALLS[op] as unknown as ManagerCall<object, null>;
  return definition.invoke(sm, args, id);
}

/**
 * An arbitrary of every call, each as often as its weight says, mapped by `make` (one
 * arbitrary per weight unit: `fc.commands` takes a plain list, so weights repeat entries).
 */
export function weightedCalls<R>(
  make: (call: CallOf) => R,
): { weight: number; arbitrary: fc.Arbitrary<R> }[] {
  return CALL_NAMES.map((op) => {
    const { weight, args } = MANAGER_CALLS[op] as unknown as ManagerCall<object, null>;
    return { weight, arbitrary: args.map((a) => make({ op, ...a } as CallOf)) };
  });
}
