/**
 * The error of a refused registration, apart from the registry so that the plugin model's
 * module stays about plugins: it names the colliding key and the plugin that owns it.
 */

/** What a refused registration collided on. */
export type PluginRegistryErrorCode =
  | "not-a-plugin"
  | "duplicate-plugin"
  | "duplicate-entry-type"
  | "duplicate-message-type"
  | "duplicate-projection"
  | "duplicate-entry-renderer"
  | "duplicate-message-renderer"
  | "duplicate-wire-type";

/** A registration the registry refused; names the key and the plugin that already owns it. */
export class PluginRegistryError extends Error {
  constructor(
    readonly code: PluginRegistryErrorCode,
    /** The plugin being registered. */
    readonly plugin: string,
    /** The contested key (plugin name, customType, projection name); for `not-a-plugin`, why. */
    readonly key: string,
    /** The plugin that owns the key already. */
    readonly owner: string | undefined,
  ) {
    super(
      code === "not-a-plugin"
        ? `Not a plugin (use definePlugin): ${plugin}${key === "" ? "" : ` (${key})`}`
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
  "duplicate-wire-type": "entry type",
};
