/**
 * `definePlugin`: one declarative, immutable object per plugin — its custom entry and message
 * types, a branch reducer, projections, renderers and bus hooks. Defining a plugin does
 * nothing to any session; installing it (`installPlugins`) or folding with it
 * (`pluginProjections`, `foldBranchState`) is a separate, explicit step.
 */
import type {
  AnyEntryTypeDefinition,
  CustomEntry,
  CustomMessageEntry,
  Projection,
  SessionEventName,
} from "@pi-sessions/core";
import { isRight } from "fp-ts/lib/Either.js";
import {
  type AnyCustomType,
  type CustomEntryType,
  type CustomMessagePayload,
  type CustomMessageType,
  PluginDefinitionError,
} from "../custom/custom-type.js";
import { decodeCustomEntry, decodePayload } from "../custom/decode.js";
import type { BranchReducer, Plugin, PluginHooks } from "../registry/registry.js";
import type { EntryRenderer, MessageRenderer } from "../render/types.js";
import { isWireType, type WireType, wireType } from "../render/wire-type.js";
import { type BranchRecipe, recipeReducer } from "./branch-recipe.js";

/** One of a plugin's entries on the branch, decoded and upcast, as its reducer receives it. */
export type ItemOf<D extends AnyCustomType> =
  D extends CustomEntryType<infer T, infer A>
    ? {
        readonly kind: "custom";
        readonly customType: T;
        readonly value: A;
        readonly storedVersion: number;
        readonly entry: CustomEntry;
      }
    : D extends CustomMessageType<infer T, infer Dt, infer C>
      ? {
          readonly kind: "custom_message";
          readonly customType: T;
          readonly value: CustomMessagePayload<Dt, C>;
          readonly storedVersion: number;
          readonly entry: CustomMessageEntry;
        }
      : never;

/** The object a plugin author writes; see {@link definePlugin}. */
export interface PluginSpec<
  E extends readonly CustomEntryType<string, unknown>[],
  M extends readonly CustomMessageType<string, unknown, unknown>[],
  S,
> {
  /** Unique name among installed plugins. */
  readonly name: string;
  /**
   * `custom` entry types this plugin owns (see `customEntryType`): payload types of pi's
   * `custom` entries, whose `type` stays `"custom"`. Not {@link PluginSpec.wireTypes}.
   */
  readonly entryTypes?: E;
  /**
   * Entry types of its own (`{"type": "bookmark", …}` lines), each made by core's
   * `defineEntryType`, bare or paired with how it reads by `wireType(definition, view)`.
   * Installing the plugin lets `host.appendWireEntry` write them and renders them by their
   * views; a reader without the plugin keeps them as entries of an unknown type.
   */
  readonly wireTypes?: readonly (AnyEntryTypeDefinition | WireType)[];
  /** `custom_message` types this plugin owns (see `customMessageType`). */
  readonly messageTypes?: M;
  /**
   * The plugin's state along the current branch, folded from its own entries: a reducer
   * (`apply` returns the next state) or an immer recipe (`recipe` changes a draft of it).
   */
  readonly branchState?:
    | BranchReducer<S, ItemOf<E[number] | M[number]>>
    | BranchRecipe<S, ItemOf<E[number] | M[number]>>;
  /** Projections (core `defineProjection`) folded over the whole log, leaf-independent. */
  readonly projections?: readonly Projection<unknown>[];
  /** Entry renderers by customType (beyond the typed `render` of its own types). */
  readonly entryRenderers?: Readonly<Record<string, EntryRenderer>>;
  /** Custom-message renderers by customType (beyond the typed `render` of its own types). */
  readonly messageRenderers?: Readonly<Record<string, MessageRenderer>>;
  /** Bus handlers, subscribed on install and removed on uninstall. */
  readonly hooks?: PluginHooks;
}

const EVENT_NAMES: ReadonlySet<string> = new Set<SessionEventName>([
  "entryAppended",
  "leafMoved",
  "sessionSwitched",
  "diagnostics",
  "handlerError",
]);

function uniqueOrThrow(plugin: string, what: string, keys: readonly string[]): void {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) {
      throw new PluginDefinitionError(`plugin "${plugin}": ${what} "${key}" is declared twice`);
    }
    seen.add(key);
  }
}

/** The spec's branch state as a reducer (a recipe becomes one); checks its shape. */
function branchReducerOf<S, I>(
  plugin: string,
  spec: BranchReducer<S, I> | BranchRecipe<S, I> | undefined,
): BranchReducer<S, I> | undefined {
  if (spec === undefined) return undefined;
  const { apply, recipe } = (typeof spec === "object" && spec !== null ? spec : {}) as Partial<
    BranchReducer<S, I> & BranchRecipe<S, I>
  >;
  if (typeof spec?.init !== "function" || typeof (apply ?? recipe) !== "function") {
    throw new PluginDefinitionError(
      `plugin "${plugin}": branchState needs init() and apply() or recipe()`,
    );
  }
  if (apply !== undefined && recipe !== undefined) {
    throw new PluginDefinitionError(
      `plugin "${plugin}": branchState takes apply() or recipe(), not both`,
    );
  }
  return apply !== undefined
    ? (spec as BranchReducer<S, I>)
    : recipeReducer(spec as BranchRecipe<S, I>);
}

/** The spec's wire types, each as a `wireType` (a bare definition gets the default view). */
function wireTypesOf(plugin: string, spec: PluginSpec<never, never, unknown>): WireType[] {
  const out: WireType[] = [];
  for (const item of spec.wireTypes ?? []) {
    try {
      out.push(isWireType(item) ? wireType(item.definition, item.view) : wireType(item));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new PluginDefinitionError(`plugin "${plugin}": wireTypes: ${why}`);
    }
  }
  uniqueOrThrow(
    plugin,
    "wire type",
    out.map((w) => w.definition.type),
  );
  return out;
}

/** A renderer of a custom entry type: decodes, then calls the typed `render`. */
function typedEntryRenderer(type: CustomEntryType<string, unknown>): EntryRenderer | undefined {
  const render = type.render;
  if (!render) return undefined;
  return (entry, ctx) => {
    if (entry.type !== "custom") return undefined;
    const decoded = decodeCustomEntry(type, entry);
    return isRight(decoded) ? render(decoded.right.value, entry, ctx) : undefined;
  };
}

/** A renderer of a custom message type: decodes `{ content, details }`, then calls `render`. */
function typedMessageRenderer(
  type: CustomMessageType<string, unknown, unknown>,
): MessageRenderer | undefined {
  const render = type.render;
  if (!render) return undefined;
  return (message, ctx) => {
    const decoded = decodePayload(type, { content: message.content, details: message.details });
    return isRight(decoded) ? render(decoded.right.value, message, ctx) : undefined;
  };
}

function mergeRenderers<R>(
  plugin: string,
  kind: string,
  explicit: Readonly<Record<string, R>> | undefined,
  typed: readonly (readonly [string, R | undefined])[],
): Readonly<Record<string, R>> {
  const out: Record<string, R> = Object.create(null);
  for (const [key, fn] of Object.entries(explicit ?? {})) {
    if (typeof fn !== "function") {
      throw new PluginDefinitionError(
        `plugin "${plugin}": ${kind} renderer "${key}" is not a function`,
      );
    }
    out[key] = fn;
  }
  for (const [key, fn] of typed) {
    if (fn === undefined) continue;
    if (key in out) {
      throw new PluginDefinitionError(
        `plugin "${plugin}": ${kind} renderer "${key}" is given twice (typed render and ${kind}Renderers)`,
      );
    }
    out[key] = fn;
  }
  return Object.freeze(out);
}

/**
 * Declares a plugin. Checks the definition and throws {@link PluginDefinitionError} for a
 * mistake (no name, a customType, wire type or projection declared twice, a wire type not made
 * by `defineEntryType` or named as a built-in, an unknown hook). The result
 * is frozen; the reducer's item type is the union of the plugin's decoded types.
 */
export function definePlugin<
  const E extends readonly CustomEntryType<string, unknown>[] = [],
  const M extends readonly CustomMessageType<string, unknown, unknown>[] = [],
  S = undefined,
>(spec: PluginSpec<E, M, S>): Plugin<S, ItemOf<E[number] | M[number]>> {
  const name = spec.name;
  if (typeof name !== "string" || name === "") {
    throw new PluginDefinitionError("plugin name must be a non-empty string");
  }
  const entryTypes: readonly CustomEntryType<string, unknown>[] = spec.entryTypes ?? [];
  const messageTypes: readonly CustomMessageType<string, unknown, unknown>[] =
    spec.messageTypes ?? [];
  for (const t of entryTypes) {
    if (t?.kind !== "custom") {
      throw new PluginDefinitionError(
        `plugin "${name}": entryTypes takes customEntryType(...) values`,
      );
    }
  }
  for (const t of messageTypes) {
    if (t?.kind !== "custom_message") {
      throw new PluginDefinitionError(
        `plugin "${name}": messageTypes takes customMessageType(...) values`,
      );
    }
  }
  uniqueOrThrow(
    name,
    "entry customType",
    entryTypes.map((t) => t.customType),
  );
  uniqueOrThrow(
    name,
    "message customType",
    messageTypes.map((t) => t.customType),
  );
  const projections = (spec.projections ?? []) as readonly Projection<unknown>[];
  for (const p of projections) {
    if (
      typeof p?.name !== "string" ||
      typeof p.init !== "function" ||
      typeof p.apply !== "function"
    ) {
      throw new PluginDefinitionError(
        `plugin "${name}": projections takes defineProjection(...) values`,
      );
    }
  }
  uniqueOrThrow(
    name,
    "projection",
    projections.map((p) => p.name),
  );
  const hooks = spec.hooks ?? {};
  for (const [event, fn] of Object.entries(hooks)) {
    if (!EVENT_NAMES.has(event) || typeof fn !== "function") {
      throw new PluginDefinitionError(
        `plugin "${name}": "${event}" is not a bus event with a handler`,
      );
    }
  }
  const reducer = branchReducerOf(name, spec.branchState);
  const wireTypes = wireTypesOf(name, spec as PluginSpec<never, never, unknown>);
  return Object.freeze({
    name,
    entryTypes: Object.freeze([...entryTypes]),
    messageTypes: Object.freeze([...messageTypes]),
    branchState: reducer as BranchReducer<S, ItemOf<E[number] | M[number]>> | undefined,
    projections: Object.freeze([...projections]),
    entryRenderers: mergeRenderers(
      name,
      "entry",
      spec.entryRenderers,
      entryTypes.map((t) => [t.customType, typedEntryRenderer(t)] as const),
    ),
    messageRenderers: mergeRenderers(
      name,
      "message",
      spec.messageRenderers,
      messageTypes.map((t) => [t.customType, typedMessageRenderer(t)] as const),
    ),
    hooks: Object.freeze({ ...hooks }),
    wireTypes: Object.freeze(wireTypes),
  });
}
