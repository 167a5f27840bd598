/**
 * The renderer registry as an immutable value: pi's `registerEntryRenderer`
 * and `registerMessageRenderer`, but each registration returns a new registry, so a plugin
 * definition can carry its renderers and combining plugins is a pure merge.
 */
import { ownEntryTypeProblem } from "@pi-sessions/core";
import { get } from "./text.js";
import type { EntryRenderer, MessageRenderer } from "./types.js";
import { type WireType, wireSummary } from "./wire-type.js";

/** The shared empty registry (registries are immutable, so one instance serves everyone). */
let EMPTY: Renderers | undefined;

/** Options of a registration. */
export interface RegisterRendererOptions {
  /** Replace an existing renderer for the same customType instead of refusing. */
  readonly override?: boolean;
}

/**
 * Thrown when a customType (or, for kind `"wire"`, a wire type) already has a renderer of the
 * same kind and `override` is unset.
 */
export class DuplicateRendererError extends Error {
  /** `customType` is the wire type's name for kind `"wire"`. */
  constructor(
    readonly kind: "entry" | "message" | "wire",
    readonly customType: string,
  ) {
    const what =
      kind === "wire"
        ? `A view of entry type "${customType}"`
        : `A ${kind} renderer for customType "${customType}"`;
    super(`${what} is already registered (pass { override: true } to replace it)`);
    this.name = "DuplicateRendererError";
  }
}

function checkArgs(kind: string, customType: unknown, fn: unknown): void {
  if (typeof customType !== "string" || customType === "") {
    throw new TypeError(`${kind} renderer: customType must be a non-empty string`);
  }
  if (typeof fn !== "function") {
    throw new TypeError(`${kind} renderer for "${customType}" must be a function`);
  }
}

/**
 * Custom renderers by customType, and the views of plugin wire types by wire name. Immutable:
 * every `with…`/`merge` returns a new registry and leaves this one unchanged.
 */
export class Renderers {
  private constructor(
    private readonly entryMap: ReadonlyMap<string, EntryRenderer>,
    private readonly messageMap: ReadonlyMap<string, MessageRenderer>,
    private readonly wireMap: ReadonlyMap<string, WireType> = new Map(),
  ) {
    Object.freeze(this);
  }

  /** The registry with no custom renderers (defaults only). */
  static empty(): Renderers {
    EMPTY ??= new Renderers(new Map(), new Map());
    return EMPTY;
  }

  /** The renderer of `custom` entries of this customType, if any. */
  entryRenderer(customType: string): EntryRenderer | undefined {
    return this.entryMap.get(customType);
  }

  /** The renderer of custom messages of this customType, if any. */
  messageRenderer(customType: string): MessageRenderer | undefined {
    return this.messageMap.get(customType);
  }

  /** The plugin wire type (with its view) of entries whose `type` is `type`, if any. */
  wireType(type: string): WireType | undefined {
    return this.wireMap.get(type);
  }

  /** Wire type names with a view, in registration order. */
  wireTypes(): string[] {
    return [...this.wireMap.keys()];
  }

  /**
   * The one-line summary a plugin's wire type gives `entry` (its view's `summary`, else its
   * title as text); undefined for any other record, or when the entry fails its codec or the
   * view throws, so the caller's own line applies. Never throws.
   */
  summaryOf(entry: unknown): string | undefined {
    const type = get(entry, "type");
    const wire = typeof type === "string" ? this.wireMap.get(type) : undefined;
    if (wire === undefined) return undefined;
    try {
      return wireSummary(wire, entry);
    } catch {
      return undefined; // Rendering shows the problem; a summary line falls back quietly.
    }
  }

  /** customTypes with an entry renderer, in registration order. */
  entryTypes(): string[] {
    return [...this.entryMap.keys()];
  }

  /** customTypes with a message renderer, in registration order. */
  messageTypes(): string[] {
    return [...this.messageMap.keys()];
  }

  /**
   * A registry that also renders `custom` entries of `customType` with `fn`. Throws
   * {@link DuplicateRendererError} if one is registered, unless `override`.
   */
  withEntryRenderer(
    customType: string,
    fn: EntryRenderer,
    options?: RegisterRendererOptions,
  ): Renderers {
    checkArgs("Entry", customType, fn);
    if (this.entryMap.has(customType) && options?.override !== true) {
      throw new DuplicateRendererError("entry", customType);
    }
    const entries = new Map(this.entryMap).set(customType, fn);
    return new Renderers(entries, this.messageMap, this.wireMap);
  }

  /**
   * A registry that also renders custom messages (`custom_message` entries and `custom`-role
   * messages) of `customType` with `fn`. Same duplicate rule as {@link withEntryRenderer}.
   */
  withMessageRenderer(
    customType: string,
    fn: MessageRenderer,
    options?: RegisterRendererOptions,
  ): Renderers {
    checkArgs("Message", customType, fn);
    if (this.messageMap.has(customType) && options?.override !== true) {
      throw new DuplicateRendererError("message", customType);
    }
    const messages = new Map(this.messageMap).set(customType, fn);
    return new Renderers(this.entryMap, messages, this.wireMap);
  }

  /**
   * A registry that also renders entries of a plugin's wire type (see `wireType`) by its
   * view. Same duplicate rule as {@link withEntryRenderer}, keyed by the wire name.
   */
  withWireType(wire: WireType, options?: RegisterRendererOptions): Renderers {
    const type = wire?.definition?.type;
    if (wire?.kind !== "wire" || typeof type !== "string") {
      throw new TypeError("withWireType takes a wireType(...) value");
    }
    // The rule `wireType` applies, for a value made by hand: a built-in keeps its rendering.
    const problem = ownEntryTypeProblem(wire.definition);
    if (problem !== undefined) throw new TypeError(`withWireType: ${problem}`);
    if (this.wireMap.has(type) && options?.override !== true) {
      throw new DuplicateRendererError("wire", type);
    }
    return new Renderers(this.entryMap, this.messageMap, new Map(this.wireMap).set(type, wire));
  }

  /** Both registries' renderers; `other` wins a clash only with `override`, else it throws. */
  merge(other: Renderers, options?: RegisterRendererOptions): Renderers {
    let out: Renderers = this;
    for (const type of other.entryTypes()) {
      out = out.withEntryRenderer(type, other.entryRenderer(type) as EntryRenderer, options);
    }
    for (const type of other.messageTypes()) {
      out = out.withMessageRenderer(type, other.messageRenderer(type) as MessageRenderer, options);
    }
    for (const type of other.wireTypes()) {
      out = out.withWireType(other.wireType(type) as WireType, options);
    }
    return out;
  }
}

/** A registry with no custom renderers. */
export function createRenderers(): Renderers {
  return Renderers.empty();
}

/** `renderers.withEntryRenderer(customType, fn, options)` as a function (pi's name). */
export function registerEntryRenderer(
  renderers: Renderers,
  customType: string,
  fn: EntryRenderer,
  options?: RegisterRendererOptions,
): Renderers {
  return renderers.withEntryRenderer(customType, fn, options);
}

/** `renderers.withMessageRenderer(customType, fn, options)` as a function (pi's name). */
export function registerMessageRenderer(
  renderers: Renderers,
  customType: string,
  fn: MessageRenderer,
  options?: RegisterRendererOptions,
): Renderers {
  return renderers.withMessageRenderer(customType, fn, options);
}
