/**
 * The theme pi hands a renderer, for tests that draw one. pi exports `initTheme` but not the
 * theme instance it creates, which every `registerEntryRenderer` / `registerMessageRenderer`
 * receives as its third argument; pi keeps that instance under a global symbol.
 */
import { initTheme, type Theme } from "@earendil-works/pi-coding-agent";

const THEME_KEY = Symbol.for("@earendil-works/pi-coding-agent:theme");

/** Initialises pi's theme `name` (default "dark", no file watcher) and returns the instance. */
export function piTheme(name = "dark"): Theme {
  initTheme(name, false);
  const theme = (globalThis as { [THEME_KEY]?: Theme })[THEME_KEY];
  if (!theme) throw new Error(`pi did not publish its theme "${name}" (pi's version changed?)`);
  return theme;
}
