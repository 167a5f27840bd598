// `@pi-sessions/testkit/pi`: test a pi extension in pi's own runtime with a scripted model,
// over pi's SessionManager and ours. Kept apart from the package root so that only tests of
// extensions depend on pi's packages (optional peer dependencies).
export * from "./manager-switch.js";
export * from "./pi-session.js";
export * from "./pi-theme.js";
