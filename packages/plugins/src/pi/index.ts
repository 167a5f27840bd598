// The `@pi-sessions/plugins/pi` entry: plugins inside the pi coding agent (extension factories,
// typed appends, branch state and pi-tui renderers). Kept apart from the package root so that
// only extensions depend on pi's packages. The renderer plumbing (registerPiRenderers) stays
// internal: installPiPlugin registers the renderers.
export * from "./pi-host.js";
export * from "./pi-host-types.js";
export { componentOf, markdownThemeOf } from "./pi-renderers.js";
export * from "./to-pi-extension.js";
