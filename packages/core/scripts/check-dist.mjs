// Checks the built ES module (dist/) against the reference session module: every name the
// reference exports must be exported by ours, with the same kind (function, class, value). Runs on `pnpm test` after `pnpm build`, as plain Node (no TS loader),
// so it proves that code written against the reference can import our build unchanged.
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const ours = await import(here("../dist/index.js"));
const reference = await import(
  here("../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js")
);
const missing = Object.keys(reference).filter((k) => !(k in ours));
const kinds = Object.keys(reference)
  .filter((k) => k in ours && typeof ours[k] !== typeof reference[k])
  .map((k) => `${k}: ${typeof ours[k]} vs ${typeof reference[k]}`);
if (missing.length > 0 || kinds.length > 0) {
  console.error(
    `dist/index.js differs from the reference: missing ${missing.join(", ") || "-"}; kinds ${kinds.join(", ") || "-"}`,
  );
  process.exit(1);
}
const sm = ours.SessionManager.inMemory("/tmp/dist-check");
const id = sm.appendMessage({ role: "user", content: "hi", timestamp: 1 });
const ctx = ours.buildSessionContext(sm.getEntries(), id);
if (ctx.messages.length !== 1 || ours.CURRENT_SESSION_VERSION !== 3) {
  console.error("dist/index.js does not work: unexpected context");
  process.exit(1);
}
console.log(
  `dist check: ${Object.keys(reference).length} reference names present, smoke test passed`,
);
