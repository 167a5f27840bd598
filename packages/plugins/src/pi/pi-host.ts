/**
 * One plugin installed into one pi extension runtime: `installPiPlugin(pi, plugin)` is called
 * from an extension factory and returns the plugin's host there. pi calls the factory again
 * for every session it starts, resumes or forks, so a host lives exactly as long as the
 * runtime that pi gives the extension; nothing is shared between runtimes.
 *
 * The host reads pi's own manager (`ctx.sessionManager`) through our folds: the branch state
 * is `foldBranchState` over `getBranch()`, kept by the same `BranchStateTracker` the manager
 * install uses, and invalid data is checked by the same `customDataValidator` before pi
 * writes anything.
 */

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import {
  EntryRejectedError,
  type Projection,
  replayProjection,
  type SessionEntry,
} from "@pi-sessions/core";
import type {
  CustomEntryType,
  CustomMessagePayload,
  CustomMessageType,
} from "../custom/custom-type.js";
import { stampVersion } from "../custom/decode.js";
import { BranchStateTracker } from "../install/branch-state-tracker.js";
import {
  customDataValidator,
  diagnosticsOf,
  pluginDiagnosticsProjection,
  readCustomEntry,
} from "../plugin/custom-data.js";
import { createRegistry } from "../registry/create-registry.js";
import type { Plugin } from "../registry/registry.js";
import type {
  PiPluginFailure,
  PiPluginHost,
  PiPluginOptions,
  PiSendOptions,
} from "./pi-host-types.js";
import { type PiSessionView, registerPiRenderers } from "./pi-renderers.js";

/**
 * Installs `plugin` into the pi extension runtime `pi` (call it from your extension factory)
 * and returns its host. It subscribes to `session_start`, `session_tree` and
 * `session_compact` (restore the branch state from `ctx.sessionManager.getBranch()`) and to
 * `message_end`, `turn_end` and `agent_end` (follow entries pi appended), and registers the
 * plugin's renderers. Every handler is wrapped: a failure is kept in `failures()`, never thrown
 * into pi. The plugin's manager bus hooks do not run in pi (pi has no such bus).
 */
export function installPiPlugin<S, I>(
  pi: ExtensionAPI,
  plugin: Plugin<S, I>,
  options: PiPluginOptions = {},
): PiPluginHost<S, I> {
  const registry = createRegistry([plugin]);
  const validate = customDataValidator(registry);
  const diagnostics = pluginDiagnosticsProjection(registry);
  const failed: PiPluginFailure[] = [];
  const listeners = new Set<(state: S) => void>();
  let session: PiSessionView | undefined;
  let seenLeaf: string | null = null;
  // The tracker reads a manager's leaf and branch only; pi's read-only manager has both.
  const view = {
    getLeafId: () => session?.getLeafId() ?? null,
    getBranch: () => (session?.getBranch() ?? []) as unknown as SessionEntry[],
  };
  const tracker = plugin.branchState ? new BranchStateTracker(plugin, view) : undefined;
  const fail = (where: string, error: unknown): void => {
    failed.push({ where, error });
  };
  // The last state listeners saw: they hear of a change, whoever appended (pi emits no event
  // for an entry another extension or a queued message wrote), and never twice of one state.
  let heard: S | undefined;
  const notify = (): void => {
    if (listeners.size === 0) return;
    const current = tracker?.current() as S;
    if (current === heard && tracker !== undefined) return;
    heard = current;
    for (const listener of listeners) {
      try {
        listener(current);
      } catch (error) {
        fail("state listener", error);
      }
    }
  };
  const restore = (ctx: ExtensionContext): void => {
    session = ctx.sessionManager;
    tracker?.invalidate();
    heard = undefined;
    seenLeaf = session.getLeafId();
    notify();
  };
  // The leaf moved by at most one entry since we last looked: extend the cache in O(1) (a
  // bigger jump leaves it stale, and the next read refolds the branch once).
  const follow = (): void => {
    const leaf = session?.getLeafEntry();
    if (!leaf || leaf.id === seenLeaf) return;
    seenLeaf = leaf.id;
    tracker?.appended(leaf as unknown as SessionEntry);
    notify();
  };
  const bound = (what: string): PiSessionView => {
    if (!session) {
      throw new Error(
        `plugin "${plugin.name}": ${what} before the host is bound to pi's session. ` +
          "Call it from a command, tool or event handler; in a session_start handler registered " +
          "before installPiPlugin (pi runs handlers in registration order), call host.bind(ctx) first.",
      );
    }
    return session;
  };
  // A read between events (a tool, a command, another extension) first catches up with an
  // entry pi appended since (O(1) when it hangs off the cached leaf), so the next event does
  // not find the cache stale and refold the branch a second time.
  const state = (): S => {
    bound("state()");
    follow();
    return tracker?.current() as S;
  };
  const on = (event: string, run: (ctx: ExtensionContext) => void): void => {
    (pi.on as (e: string, h: (ev: unknown, ctx: ExtensionContext) => void) => void)(
      event,
      (_event, ctx) => {
        try {
          run(ctx);
        } catch (error) {
          fail(event, error);
        }
      },
    );
  };
  for (const event of ["session_start", "session_tree", "session_compact"]) on(event, restore);
  for (const event of ["message_end", "turn_end", "tool_execution_end", "agent_end"]) {
    on(event, (ctx) => {
      session = ctx.sessionManager;
      follow();
    });
  }
  registerPiRenderers(pi, plugin, {
    format: options.format ?? "markdown",
    session: () => session,
    failed: fail,
  });

  /** Refuses a draft entry exactly as our manager's append guard would, before pi sees it. */
  const guard = (draft: Record<string, unknown>, at: PiSessionView): void => {
    const entry = {
      id: "",
      parentId: at.getLeafId(),
      timestamp: new Date().toISOString(),
      ...draft,
    } as unknown as SessionEntry;
    const rejection = validate(entry);
    if (rejection) throw new EntryRejectedError(entry, rejection);
  };

  return {
    plugin,
    get bound() {
      return session !== undefined;
    },
    bind: restore,
    state,
    diagnostics: () =>
      diagnosticsOf(
        replayProjection(
          diagnostics,
          bound("diagnostics()").getEntries() as unknown as SessionEntry[],
        ),
      ),
    failures: () => [...failed],
    projectionState: <P>(projection: Projection<P>): P =>
      replayProjection(
        projection,
        bound("projectionState()").getEntries() as unknown as SessionEntry[],
      ),
    read: (entry) => readCustomEntry(registry, entry),
    append(typeOrName: CustomEntryType<string, unknown> | string, data: unknown): string {
      const at = bound("append");
      const type = registry.ownType<CustomEntryType<string, unknown>>("custom", typeOrName);
      const stamped = stampVersion(type, data);
      guard({ type: "custom", customType: type.customType, data: stamped }, at);
      pi.appendEntry(type.customType, stamped);
      const id = at.getLeafId() ?? "";
      follow();
      return id;
    },
    sendMessage(
      typeOrName: CustomMessageType<string, unknown, unknown> | string,
      payload: unknown,
      send: PiSendOptions = {},
    ): void {
      const at = bound("sendMessage");
      const type = registry.ownType<CustomMessageType<string, unknown, unknown>>(
        "custom_message",
        typeOrName,
      );
      const stamped = stampVersion(type, payload) as CustomMessagePayload<unknown, unknown>;
      const display = send.display ?? true;
      const message = {
        customType: type.customType,
        content: stamped.content,
        display,
        details: stamped.details,
      };
      guard({ type: "custom_message", ...message }, at);
      const { display: _display, ...delivery } = send;
      pi.sendMessage(message as Parameters<ExtensionAPI["sendMessage"]>[0], delivery);
      follow();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  } as PiPluginHost<S, I>;
}
