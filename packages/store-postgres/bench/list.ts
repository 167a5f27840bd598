/**
 * The cost of a listing: `store.listAll()` over S sessions of M messages each (a user turn,
 * an assistant reply with a tool call, a tool result of about 2 KB, repeated), against the
 * file store's listing of the same files, cold (every file read: `cache: null`) and warm (its
 * in-memory cache, as `SessionManager.listAll` runs it).
 *
 *   pnpm exec node --conditions=@pi-sessions/source --import tsx bench/list.ts \
 *     [--sessions=N --messages=N --rounds=N]
 *
 * The server is the one `PI_SESSIONS_PG_URL` names, else one started here from the npm binaries.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { listSessionsInDir } from "@pi-sessions/core/internal";
import { startPostgres } from "@pi-sessions/test-utils/pg-server";
import { PostgresSessionStore } from "../src/index.js";
import { flag } from "./bench-inputs.js";

const SESSIONS = flag("sessions", 300);
const MESSAGES = flag("messages", 90);
const ROUNDS = flag("rounds", 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** One session file of `MESSAGES` messages in `dir`. */
function session(dir: string, n: number): string {
  const sm = SessionManager.create(`/work/bench/${n % 7}`, dir);
  const at = 1_700_000_000_000 + n * 1_000_000;
  for (let i = 0; i < MESSAGES; i += 3) {
    sm.appendMessage({ role: "user", content: `question ${i} of ${n}`, timestamp: at + i });
    sm.appendMessage({
      role: "assistant",
      content: [
        { type: "text", text: `looking at ${i}` },
        { type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `/f/${i}` } },
      ],
      api: "messages",
      provider: "anthropic",
      model: "m",
      usage: {
        input: 1,
        output: 2,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 3,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "toolUse",
      timestamp: at + i + 1,
    } as never);
    sm.appendMessage({
      role: "toolResult",
      toolCallId: `c${i}`,
      toolName: "read",
      content: [{ type: "text", text: "x".repeat(2000) }],
      isError: false,
      timestamp: at + i + 2,
    } as never);
  }
  if (n % 5 === 0) sm.appendSessionInfo(`session ${n}`);
  sm.close();
  return sm.getSessionFile() as string;
}

async function main(): Promise<void> {
  const server = process.env.PI_SESSIONS_PG_URL ? undefined : await startPostgres();
  const url = process.env.PI_SESSIONS_PG_URL || (server?.url as string);
  const schema = `bench_list_${process.pid}`;
  const store = await PostgresSessionStore.connect({ connectionString: url, schema });
  const dir = mkdtempSync(join(tmpdir(), "pi-pg-list-"));
  try {
    for (let n = 0; n < SESSIONS; n++) await store.importFile(session(dir, n));
    const bytes = await store.pool.query<{ b: string }>(
      `SELECT sum(octet_length(line))::text AS b FROM ${store.s}.entries`,
    );
    const pgMs: number[] = [];
    const fileMs: number[] = [];
    const coldMs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now();
      const infos = await store.listAll();
      pgMs.push(performance.now() - t);
      if (infos.length !== SESSIONS) throw new Error("the listing lost sessions");
      t = performance.now();
      await listSessionsInDir(dir, { cache: null });
      coldMs.push(performance.now() - t);
      t = performance.now();
      await SessionManager.listAll(dir);
      fileMs.push(performance.now() - t);
    }
    console.log(
      `listAll of ${SESSIONS} sessions × ${MESSAGES} messages (${(Number(bytes.rows[0]?.b) / 1e6).toFixed(1)} MB of lines), median of ${ROUNDS}: postgres ${median(pgMs).toFixed(0)} ms, file store cold ${median(coldMs).toFixed(0)} ms, warm ${median(fileMs).toFixed(0)} ms`,
    );
  } finally {
    await store.pool.query(`DROP SCHEMA "${schema}" CASCADE`).catch(() => {});
    await store.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
