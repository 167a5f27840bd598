// Loaded by vitest before every test file (vitest.config.ts `setupFiles`): pi's runtime can
// then run over our SessionManager (`startPiSession({ manager: "ours" })`).
import "@pi-sessions/testkit/pi-hook";
