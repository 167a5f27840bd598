/**
 * Setup of every CLI test file: `XDG_CACHE_HOME` names a fresh temp directory, removed after
 * the file's tests, and `PI_SESSIONS_INDEX` is unset, so the default session index that `ls`
 * and `search` open lives there and never in the user's own `~/.cache`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const cache = mkdtempSync(join(tmpdir(), "pi-sessions-cache-"));
process.env.XDG_CACHE_HOME = cache;
delete process.env.PI_SESSIONS_INDEX;
afterAll(() => rmSync(cache, { recursive: true, force: true }));
