/**
 * The plugin model: a defined plugin, the context its hooks get, the host an install returns,
 * and the registry that holds plugins. They refer to one another, so they are declared in this
 * one module; `definePlugin` makes plugins, the folds and `installPlugins` use them.
 *
 * The registry is an immutable value: `register` returns a new registry (or throws a
 * {@link PluginRegistryError}). Every key a plugin claims — its name, entry and message
 * customTypes, wire type names, projection names, renderer keys — has exactly one owner; a
 * second claim is refused unless `override: true`, and then the newer plugin wins the key.
 */
import type {
  AnyEntryTypeDefinition,
  DefinedEntryFields,
  EntryTypeRegistry,
  Projection,
  SessionEntry,
  SessionEventMap,
  SessionEventName,
  SessionManager,
} from "@pi-sessions/core";
import { entryTypeRegistry, ownEntryTypeProblem } from "@pi-sessions/core";
import type { Either } from "fp-ts/lib/Either.js";
import { isLeft, left, right } from "fp-ts/lib/Either.js";
import type {
  CustomEntryType,
  CustomMessagePayload,
  CustomMessageType,
} from "../custom/custom-type.js";
import type { PluginDiagnostic, ReadCustomEntry } from "../custom/decode.js";
import { Renderers } from "../render/registry.js";
import type { EntryRenderer, MessageRenderer } from "../render/types.js";
import { isWireType, type WireType } from "../render/wire-type.js";
import type { BranchReducer } from "./branch-reducer.js";
import { PluginRegistryError, type PluginRegistryErrorCode } from "./registry-error.js";

export type { BranchReducer } from "./branch-reducer.js";

/** What a hook gets besides the event: the manager and the install it belongs to. */
export interface HookContext {
  readonly manager: SessionManager;
  /** The plugin's name. */
  readonly plugin: string;
  /** The install: branch states, projection states, typed appends. */
  readonly host: PluginHost;
}

/** Bus handlers by event name; they run after the change is committed, isolated from each other. */
export type PluginHooks = {
  readonly [K in SessionEventName]?: (event: SessionEventMap[K], ctx: HookContext) => void;
};

/** A defined plugin: frozen, with every optional part filled in. */
export interface Plugin<S = unknown, I = unknown> {
  readonly name: string;
  readonly entryTypes: readonly CustomEntryType<string, unknown>[];
  readonly messageTypes: readonly CustomMessageType<string, unknown, unknown>[];
  readonly branchState: BranchReducer<S, I> | undefined;
  readonly projections: readonly Projection<unknown>[];
  /** Every entry renderer, typed `render`s of its own `custom` types included. */
  readonly entryRenderers: Readonly<Record<string, EntryRenderer>>;
  /** Every message renderer, typed `render`s of its own message types included. */
  readonly messageRenderers: Readonly<Record<string, MessageRenderer>>;
  readonly hooks: PluginHooks;
  /** Its own wire types with their views (filled by `definePlugin`; absent in older objects). */
  readonly wireTypes?: readonly WireType[];
}

/** Any plugin, whatever its state and item types (for lists and registries). */
// biome-ignore lint/suspicious/noExplicitAny: a list of plugins mixes state types.
export type AnyPlugin = Plugin<any, any>;

/** What `installPlugins` returns: the plugins' state on that manager, and the way back. */
export interface PluginHost {
  readonly manager: SessionManager;
  readonly registry: PluginRegistry;
  /** False after {@link uninstall}. */
  readonly installed: boolean;
  /**
   * The plugin's branch state at the manager's current leaf (its reducer folded over its own
   * entries, root → leaf). O(1) while appending at the leaf; O(path) once after a leaf move.
   */
  branchState<S>(plugin: Plugin<S, unknown> | string): S;
  /** The state of an installed plugin projection. */
  projectionState<S>(projection: Projection<S>): S | undefined;
  /** Invalid custom data in the current session (entries kept), with file lines when known. */
  diagnostics(): PluginDiagnostic[];
  /** Reads an entry through the registry; undefined when no plugin registered its customType. */
  read(entry: SessionEntry): ReadCustomEntry | undefined;
  /** Appends a `custom` entry of an installed type, stamped with its current version. */
  appendCustom<A>(type: CustomEntryType<string, A>, data: A): string;
  /** Appends a `custom_message` entry of an installed type, stamped with its current version. */
  appendCustomMessage<D, C>(
    type: CustomMessageType<string, D, C>,
    payload: CustomMessagePayload<D, C>,
    display: boolean,
  ): string;
  /**
   * Appends an entry of an installed plugin's own wire type (`type`: its definition or its
   * `wireType`): `{ type, id, parentId, timestamp, ...fields }`, checked by the codec first
   * (core's `appendDefinedEntry`; a mismatch throws `EntryRejectedError`, nothing written).
   */
  appendWireEntry<D extends AnyEntryTypeDefinition>(
    type: D | WireType<D>,
    fields: DefinedEntryFields<D>,
  ): string;
  /** Removes everything the install added (guard, projections, hooks). Idempotent. */
  uninstall(): void;
}

/** Options of {@link PluginRegistry.register}. */
export interface RegisterOptions {
  /** Replace a plugin of the same name and take over every contested key. Default false. */
  readonly override?: boolean;
}

/** A registered type with the plugin that owns it. */
export interface OwnedType<D> {
  readonly plugin: AnyPlugin;
  readonly type: D;
}

type Claim = readonly [code: PluginRegistryErrorCode, key: string];

/** Every key a plugin claims, with the error code of a collision on it. */
function claimsOf(p: AnyPlugin): Claim[] {
  return [
    ["duplicate-plugin", p.name],
    ...p.entryTypes.map((t): Claim => ["duplicate-entry-type", t.customType]),
    ...p.messageTypes.map((t): Claim => ["duplicate-message-type", t.customType]),
    ...p.projections.map((x): Claim => ["duplicate-projection", x.name]),
    ...(p.wireTypes ?? []).map((w): Claim => ["duplicate-wire-type", w.definition.type]),
    ...Object.keys(p.entryRenderers).map((k): Claim => ["duplicate-entry-renderer", k]),
    ...Object.keys(p.messageRenderers).map((k): Claim => ["duplicate-message-renderer", k]),
  ];
}

/**
 * Why `p` is not a plugin the registry takes, or `undefined` when it is: a plugin's shape, and
 * each of its wire types passing core's rule for a type of one's own (`ownEntryTypeProblem`).
 * `definePlugin` checks that too, but a plugin object made by hand must not take a built-in
 * type's checking or rendering over, nor the header's type.
 */
function notAPlugin(p: unknown): string | undefined {
  const plugin = p as Partial<AnyPlugin> | null;
  if (
    typeof plugin !== "object" ||
    plugin === null ||
    typeof plugin.name !== "string" ||
    !Array.isArray(plugin.entryTypes) ||
    !Array.isArray(plugin.projections)
  ) {
    return "";
  }
  const wires: unknown = plugin.wireTypes ?? [];
  if (!Array.isArray(wires)) return "its wireTypes is not an array";
  for (const w of wires) {
    if (!isWireType(w)) return "an item of its wireTypes is not a wireType(...)";
    const problem = ownEntryTypeProblem(w.definition);
    if (problem !== undefined) return `wireTypes: ${problem}`;
  }
  return undefined;
}

/** An immutable set of plugins with O(1) lookups by every key they claim. */
export class PluginRegistry {
  /** Plugins in registration order. */
  readonly plugins: readonly AnyPlugin[];
  private readonly owners = new Map<string, AnyPlugin>();
  private readonly entryTypes = new Map<string, OwnedType<CustomEntryType<string, unknown>>>();
  private readonly messageTypes = new Map<
    string,
    OwnedType<CustomMessageType<string, unknown, unknown>>
  >();
  private readonly projectionIndex = new Map<string, Projection<unknown>>();
  private readonly entryRendererIndex = new Map<string, EntryRenderer>();
  private readonly messageRendererIndex = new Map<string, MessageRenderer>();
  private readonly wireTypeIndex = new Map<string, OwnedType<WireType>>();

  private constructor(plugins: readonly AnyPlugin[]) {
    this.plugins = Object.freeze([...plugins]);
    // Later plugins win a key: only an override can have put a later claimant in the list.
    for (const p of this.plugins) {
      for (const [code, key] of claimsOf(p)) this.owners.set(`${code}\u0000${key}`, p);
      for (const type of p.entryTypes) this.entryTypes.set(type.customType, { plugin: p, type });
      for (const type of p.messageTypes)
        this.messageTypes.set(type.customType, { plugin: p, type });
      for (const x of p.projections) this.projectionIndex.set(x.name, x);
      for (const w of p.wireTypes ?? [])
        this.wireTypeIndex.set(w.definition.type, { plugin: p, type: w });
      for (const [k, r] of Object.entries(p.entryRenderers)) this.entryRendererIndex.set(k, r);
      for (const [k, r] of Object.entries(p.messageRenderers)) this.messageRendererIndex.set(k, r);
    }
    Object.freeze(this);
  }

  /** The empty registry. */
  static empty(): PluginRegistry {
    return new PluginRegistry([]);
  }

  /** Plugin names in registration order. */
  get names(): readonly string[] {
    return this.plugins.map((p) => p.name);
  }

  /** The plugin with this name. */
  plugin(name: string): AnyPlugin | undefined {
    return this.plugins.find((p) => p.name === name);
  }

  /** The `custom` entry type registered for `customType`, with its plugin. O(1). */
  entryType(customType: string): OwnedType<CustomEntryType<string, unknown>> | undefined {
    return this.entryTypes.get(customType);
  }

  /** The `custom_message` type registered for `customType`, with its plugin. O(1). */
  messageType(
    customType: string,
  ): OwnedType<CustomMessageType<string, unknown, unknown>> | undefined {
    return this.messageTypes.get(customType);
  }

  /**
   * The registered type that `type` names (the type object itself or its customType), for an
   * append through a host: throws when this registry has no such type, or holds another
   * object under that customType, so nothing unregistered is ever stamped and written.
   */
  ownType<T extends CustomEntryType<string, unknown> | CustomMessageType<string, unknown, unknown>>(
    kind: "custom" | "custom_message",
    type: T | string,
  ): T {
    const customType = typeof type === "string" ? type : type.customType;
    const owned = kind === "custom" ? this.entryType(customType) : this.messageType(customType);
    if (!owned || (typeof type !== "string" && owned.type !== type)) {
      const what = kind === "custom" ? "Custom entry type" : "Custom message type";
      throw new Error(`${what} "${customType}" is not installed here`);
    }
    return owned.type as T;
  }

  /** The wire type (a plugin's own entry type) named `type`, with its plugin. O(1). */
  wireType(type: string): OwnedType<WireType> | undefined {
    return this.wireTypeIndex.get(type);
  }

  /**
   * The installed wire type `type` (a definition or a `wireType`) is, for a host's append;
   * throws when there is none or another object holds its name, so nothing foreign is written.
   */
  ownWireType(type: AnyEntryTypeDefinition | WireType): WireType {
    const definition = isWireType(type) ? type.definition : type;
    const owned = this.wireTypeIndex.get(definition?.type);
    if (!owned || (owned.type !== type && owned.type.definition !== type)) {
      throw new Error(`Entry type "${String(definition?.type)}" is not installed here`);
    }
    return owned.type;
  }

  /** Core's registry of the built-in and every plugin wire type (for `mergeSessions`). */
  entryTypeRegistry(): EntryTypeRegistry {
    const definitions = [...this.wireTypeIndex.values()].map((o) => o.type.definition);
    return entryTypeRegistry(definitions) as EntryTypeRegistry;
  }

  /** The entry renderer for `customType`. O(1). */
  entryRenderer(customType: string): EntryRenderer | undefined {
    return this.entryRendererIndex.get(customType);
  }

  /** The custom-message renderer for `customType`. O(1). */
  messageRenderer(customType: string): MessageRenderer | undefined {
    return this.messageRendererIndex.get(customType);
  }

  /**
   * Every plugin renderer as a `Renderers` value for `renderEntry`, `renderBranch` and
   * `renderTree` (`{ renderers: registry.renderers() }`).
   */
  renderers(): Renderers {
    let out = Renderers.empty();
    // The indexes already hold one renderer per key, so nothing can collide here.
    for (const [k, r] of this.entryRendererIndex) out = out.withEntryRenderer(k, r);
    for (const [k, r] of this.messageRendererIndex) out = out.withMessageRenderer(k, r);
    for (const { type } of this.wireTypeIndex.values()) out = out.withWireType(type);
    return out;
  }

  /** Every plugin projection (one per name), in registration order. */
  projections(): Projection<unknown>[] {
    return [...this.projectionIndex.values()];
  }

  /**
   * A registry with `plugin` added, or the collision as a value. Never changes this registry.
   */
  tryRegister(
    plugin: AnyPlugin,
    options: RegisterOptions = {},
  ): Either<PluginRegistryError, PluginRegistry> {
    const why = notAPlugin(plugin);
    if (why !== undefined) {
      const name = (plugin as { name?: unknown } | null)?.name;
      const named = typeof name === "string" ? `"${name}"` : String(plugin);
      return left(new PluginRegistryError("not-a-plugin", named, why, undefined));
    }
    if (options.override) {
      return right(
        new PluginRegistry([...this.plugins.filter((p) => p.name !== plugin.name), plugin]),
      );
    }
    for (const [code, key] of claimsOf(plugin)) {
      const owner = this.owners.get(`${code}\u0000${key}`);
      if (owner) return left(new PluginRegistryError(code, plugin.name, key, owner.name));
    }
    return right(new PluginRegistry([...this.plugins, plugin]));
  }

  /** A registry with `plugin` added; throws {@link PluginRegistryError} on a collision. */
  register(plugin: AnyPlugin, options: RegisterOptions = {}): PluginRegistry {
    const result = this.tryRegister(plugin, options);
    if (isLeft(result)) throw result.left;
    return result.right;
  }

  /** A registry without the plugin of this name (this one when there is none). */
  unregister(name: string): PluginRegistry {
    if (!this.plugins.some((p) => p.name === name)) return this;
    return new PluginRegistry(this.plugins.filter((p) => p.name !== name));
  }
}
