/**
 * Regenerates `demo/sessions/` (run by `pnpm --filter @pi-sessions/cli demo:make`). The corpus
 * is found as the tests find it: `PI_SESSIONS_CORPUS`, else the repository's `fixtures/corpus/`.
 */

import { rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { CORPUS_DIR } from "@pi-sessions/test-utils/corpus";
import { writeDemoSessions } from "./demo-sessions.js";

const cliDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const root = join(cliDir, "demo", "sessions");
rmSync(root, { recursive: true, force: true });
for (const file of writeDemoSessions(root, CORPUS_DIR)) console.log(relative(cliDir, file));
