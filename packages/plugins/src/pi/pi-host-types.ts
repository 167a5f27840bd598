/**
 * What a plugin's host inside pi offers ({@link PiPluginHost}) and the options of installing
 * one and of sending through it; `pi-host.ts` builds the host.
 */

import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Projection, SessionEntry } from "@pi-sessions/core";
import type {
  CustomEntryType,
  CustomMessagePayload,
  CustomMessageType,
} from "../custom/custom-type.js";
import type { PluginDiagnostic, ReadCustomEntry } from "../custom/decode.js";
import type { Plugin } from "../registry/registry.js";
import type { RenderFormat } from "../render/types.js";

/** A failure caught inside a handler or renderer of the host (pi never sees it thrown). */
export interface PiPluginFailure {
  /** Where: `session_start`, `entry renderer "todo"`, a listener, … */
  readonly where: string;
  /** What was thrown. */
  readonly error: unknown;
}

/** Options of {@link installPiPlugin}. */
export interface PiPluginOptions {
  /** How the plugin's renderers draw in pi: a Markdown or a plain Text component (default "markdown"). */
  readonly format?: RenderFormat;
}

/** Options of {@link PiPluginHost.sendMessage} (pi's `sendMessage` options, plus `display`). */
export interface PiSendOptions {
  /** Show the message in the transcript (default true). */
  readonly display?: boolean;
  /** Start a turn when pi is idle (pi's option). */
  readonly triggerTurn?: boolean;
  /** How a message sent while pi is streaming is delivered (pi's option). */
  readonly deliverAs?: "steer" | "followUp" | "nextTurn";
}

type EntryItems<I> = Extract<I, { readonly kind: "custom"; readonly customType: string }>;
type MessageItems<I> = Extract<I, { readonly kind: "custom_message"; readonly customType: string }>;
type ValueOf<Items, K> =
  Extract<Items, { readonly customType: K }> extends { readonly value: infer V } ? V : never;

/** A plugin's life inside one pi runtime, made by `installPiPlugin`. */
export interface PiPluginHost<S, I = unknown> {
  /** The installed plugin. */
  readonly plugin: Plugin<S, I>;
  /** True once the host knows pi's session: its `session_start` handler ran, or {@link bind}. */
  readonly bound: boolean;
  /**
   * Binds the host to the session of `ctx` at once (what its own `session_start` handler does).
   * pi runs an extension's handlers in the order they were registered, so a `session_start`
   * handler registered before `installPiPlugin` runs before the host is bound: call
   * `host.bind(ctx)` there before reading. Idempotent; the state is refolded from `ctx`.
   */
  bind(ctx: ExtensionContext): void;
  /**
   * The plugin's branch state at pi's current leaf: its reducer folded over its own entries of
   * `getBranch()` (older versions upcast, unreadable ones skipped). O(1) per own append; a leaf
   * moved by something else is refolded once on the next read. `undefined` without a reducer.
   * Throws before the host is bound (see {@link bind}): an empty state would be wrong for a
   * resumed or reloaded session.
   */
  state(): S;
  /**
   * Invalid or unknown-version records of the plugin's types in this session, in file order.
   * Throws before the host is bound, like {@link state}.
   */
  diagnostics(): PluginDiagnostic[];
  /** Errors caught in the host's handlers, renderers and listeners, oldest first. */
  failures(): readonly PiPluginFailure[];
  /** The state of one of the plugin's projections, folded over the whole session (bound only). */
  projectionState<P>(projection: Projection<P>): P;
  /** Reads an entry through the plugin's types; undefined for other entries. */
  read(entry: SessionEntry): ReadCustomEntry | undefined;
  /**
   * Appends a `custom` entry through `pi.appendEntry`, stamped with the type's version in
   * `data.v`. Throws `EntryRejectedError` (naming every io-ts path) before pi writes anything
   * when the data does not match the codec. Returns the new entry's id.
   */
  append<A>(type: CustomEntryType<string, A>, data: A): string;
  /** {@link append} by customType: the data is typed from the plugin's own types. */
  append<K extends EntryItems<I>["customType"]>(
    customType: K,
    data: ValueOf<EntryItems<I>, K>,
  ): string;
  /**
   * Sends a `custom_message` through `pi.sendMessage`, stamped with the version in
   * `details.v`; refused like {@link append} before pi sees it.
   */
  sendMessage<D, C>(
    type: CustomMessageType<string, D, C>,
    payload: CustomMessagePayload<D, C>,
    options?: PiSendOptions,
  ): void;
  /** {@link sendMessage} by customType: the payload is typed from the plugin's own types. */
  sendMessage<K extends MessageItems<I>["customType"]>(
    customType: K,
    payload: ValueOf<MessageItems<I>, K>,
    options?: PiSendOptions,
  ): void;
  /** Calls `listener` with the state whenever it was restored or changed; returns the unsubscribe. */
  subscribe(listener: (state: S) => void): () => void;
}
