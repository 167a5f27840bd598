/**
 * The plugin registry: an immutable value. `register` returns a new registry (or throws a
 * {@link PluginRegistryError}); the registry it was called on never changes. Every key a
 * plugin claims — its name, entry and message customTypes, projection names, renderer keys —
 * has exactly one owner; a second claim is refused unless `override: true`, in which case
 * the newer plugin wins that key (and replaces a plugin of the same name).
 */
import type { Projection } from "@pi-sessions/core";
import type { Either } from "fp-ts/lib/Either.js";
import { isLeft, left, right } from "fp-ts/lib/Either.js";
import type { CustomEntryType, CustomMessageType } from "../custom/custom-type.js";
import type { AnyPlugin } from "../plugin/define-plugin.js";
import { Renderers } from "../render/registry.js";
import type { EntryRenderer, MessageRenderer } from "../render/types.js";

/** What a refused registration collided on. */
export type PluginRegistryErrorCode =
  | "not-a-plugin"
  | "duplicate-plugin"
  | "duplicate-entry-type"
  | "duplicate-message-type"
  | "duplicate-projection"
  | "duplicate-entry-renderer"
  | "duplicate-message-renderer";

/** A registration the registry refused; names the key and the plugin that already owns it. */
export class PluginRegistryError extends Error {
  constructor(
    readonly code: PluginRegistryErrorCode,
    /** The plugin being registered. */
    readonly plugin: string,
    /** The contested key (plugin name, customType, projection name). */
    readonly key: string,
    /** The plugin that owns the key already. */
    readonly owner: string | undefined,
  ) {
    super(
      code === "not-a-plugin"
        ? `Not a plugin (use definePlugin): ${plugin}`
        : `Plugin "${plugin}": ${KEY_NAMES[code]} "${key}" is already registered by plugin "${owner}" (pass { override: true } to replace it)`,
    );
    this.name = "PluginRegistryError";
  }
}

const KEY_NAMES: Record<PluginRegistryErrorCode, string> = {
  "not-a-plugin": "",
  "duplicate-plugin": "the name",
  "duplicate-entry-type": "custom entry type",
  "duplicate-message-type": "custom message type",
  "duplicate-projection": "projection",
  "duplicate-entry-renderer": "entry renderer",
  "duplicate-message-renderer": "message renderer",
};

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
    ...Object.keys(p.entryRenderers).map((k): Claim => ["duplicate-entry-renderer", k]),
    ...Object.keys(p.messageRenderers).map((k): Claim => ["duplicate-message-renderer", k]),
  ];
}

const isPlugin = (p: unknown): p is AnyPlugin =>
  typeof p === "object" &&
  p !== null &&
  typeof (p as AnyPlugin).name === "string" &&
  Array.isArray((p as AnyPlugin).entryTypes) &&
  Array.isArray((p as AnyPlugin).projections);

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

  private constructor(plugins: readonly AnyPlugin[]) {
    this.plugins = Object.freeze([...plugins]);
    // Later plugins win a key: only an override can have put a later claimant in the list.
    for (const p of this.plugins) {
      for (const [code, key] of claimsOf(p)) this.owners.set(`${code}\u0000${key}`, p);
      for (const type of p.entryTypes) this.entryTypes.set(type.customType, { plugin: p, type });
      for (const type of p.messageTypes)
        this.messageTypes.set(type.customType, { plugin: p, type });
      for (const x of p.projections) this.projectionIndex.set(x.name, x);
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
    if (!isPlugin(plugin))
      return left(new PluginRegistryError("not-a-plugin", String(plugin), "", undefined));
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

/**
 * A registry of `plugins`, registered in order; throws {@link PluginRegistryError} on the
 * first collision unless `override` is set.
 */
export function createRegistry(
  plugins: readonly AnyPlugin[] = [],
  options: RegisterOptions = {},
): PluginRegistry {
  let registry = PluginRegistry.empty();
  for (const p of plugins) registry = registry.register(p, options);
  return registry;
}
