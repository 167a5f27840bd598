/**
 * The renderer registry as an immutable value: pi's `registerEntryRenderer`
 * and `registerMessageRenderer`, but each registration returns a new registry, so a plugin
 * definition can carry its renderers and combining plugins is a pure merge.
 */
import type { EntryRenderer, MessageRenderer } from "./types.js";

/** The shared empty registry (registries are immutable, so one instance serves everyone). */
let EMPTY: Renderers | undefined;

/** Options of a registration. */
export interface RegisterRendererOptions {
  /** Replace an existing renderer for the same customType instead of refusing. */
  readonly override?: boolean;
}

/** Thrown when a customType already has a renderer of the same kind and `override` is unset. */
export class DuplicateRendererError extends Error {
  constructor(
    readonly kind: "entry" | "message",
    readonly customType: string,
  ) {
    super(
      `A ${kind} renderer for customType "${customType}" is already registered (pass { override: true } to replace it)`,
    );
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
 * Custom renderers by customType. Immutable: every `with…`/`merge` returns a new registry and
 * leaves this one unchanged.
 */
export class Renderers {
  private constructor(
    private readonly entryMap: ReadonlyMap<string, EntryRenderer>,
    private readonly messageMap: ReadonlyMap<string, MessageRenderer>,
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
    return new Renderers(new Map(this.entryMap).set(customType, fn), this.messageMap);
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
    return new Renderers(this.entryMap, new Map(this.messageMap).set(customType, fn));
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
