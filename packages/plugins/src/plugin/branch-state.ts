/**
 * A plugin's state along a branch: its reducer folded over its own entries on the path
 * root → leaf. `foldBranchState` is the pure definition; an install keeps it current on a
 * manager (`BranchStateTracker`, beside `installPlugins`) and must always equal this fold.
 */
import {
  branchOf,
  type CustomEntry,
  type CustomMessageEntry,
  type SessionEntry,
  type SessionState,
} from "@pi-sessions/core";
import { isRight } from "fp-ts/lib/Either.js";
import type { AnyCustomType } from "../custom/custom-type.js";
import { decodeCustomEntry } from "../custom/decode.js";
import type { AnyPlugin, Plugin } from "../registry/registry.js";

interface OwnTypes {
  readonly entries: ReadonlyMap<string, AnyCustomType>;
  readonly messages: ReadonlyMap<string, AnyCustomType>;
}

const ownTypesMemo = new WeakMap<AnyPlugin, OwnTypes>();

/** The plugin's own types by customType (built once per plugin object). */
function ownTypes(plugin: AnyPlugin): OwnTypes {
  let own = ownTypesMemo.get(plugin);
  if (!own) {
    own = {
      entries: new Map(plugin.entryTypes.map((t) => [t.customType, t])),
      messages: new Map(plugin.messageTypes.map((t) => [t.customType, t])),
    };
    ownTypesMemo.set(plugin, own);
  }
  return own;
}

/**
 * The state after one more entry of the branch: the reducer's `apply` when the entry is one of
 * the plugin's own types and reads correctly, else the state unchanged. O(1) (decodes are
 * memoised per entry).
 */
export function stepBranchState<S>(plugin: Plugin<S>, state: S, entry: SessionEntry): S {
  const reducer = plugin.branchState;
  if (!reducer) return state;
  let type: AnyCustomType | undefined;
  if (entry.type === "custom") type = ownTypes(plugin).entries.get(entry.customType);
  else if (entry.type === "custom_message") type = ownTypes(plugin).messages.get(entry.customType);
  if (!type) return state;
  const custom = entry as CustomEntry | CustomMessageEntry;
  const decoded = decodeCustomEntry(type, custom);
  if (!isRight(decoded)) return state;
  const { value, storedVersion } = decoded.right;
  return reducer.apply(state, {
    kind: type.kind,
    customType: type.customType,
    value,
    storedVersion,
    entry: custom,
  });
}

/** The plugin's branch reducer; throws when it declares none. */
function reducerOf<S>(plugin: Plugin<S>) {
  if (!plugin.branchState) throw new Error(`Plugin "${plugin.name}" has no branchState reducer`);
  return plugin.branchState;
}

/** The plugin's state for a branch given as its path, root first (the pure definition). */
export function foldBranchState<S>(plugin: Plugin<S>, path: readonly SessionEntry[]): S {
  let state = reducerOf(plugin).init();
  for (const entry of path) state = stepBranchState(plugin, state, entry);
  return state;
}

/** The plugin's state on a session state's branch to `leafId` (default: its leaf). */
export function branchStateOf<S>(
  plugin: Plugin<S>,
  state: SessionState,
  leafId: string | null = state.leafId,
): S {
  return foldBranchState(plugin, leafId === null ? [] : branchOf(state, leafId));
}
