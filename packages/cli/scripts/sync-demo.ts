/**
 * The two-machine walk-through of the README's `sync` section, run for real: one session
 * carried between a laptop and a desktop, continued on both while apart, then
 * `pi-sessions sync`, `pi-sessions tree`, and the tree pi 1.6.0's own SessionManager loads
 * from the synced file (what `/tree` shows). Deterministic (fixed ids and times, fixed paths
 * under /tmp/pi-sync-demo), so the README shows its output verbatim and a test compares them:
 *
 *   node --conditions=@pi-sessions/source --import tsx scripts/sync-demo.ts
 */

import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadReference } from "@pi-sessions/test-utils/reference";

const cliDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const demo = "/tmp/pi-sync-demo";
const [laptop, desktop] = [join(demo, "laptop"), join(demo, "desktop")];
const rel = "--home-me-shop--/2026-03-02T09-00-00-000Z_019cadc6-9a80-7b0b-ae33-47ffbfd3f001.jsonl";

const at = (min: number) => `2026-03-02T09:${String(min).padStart(2, "0")}:00.000Z`;
const usage = {
  input: 900,
  output: 120,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 1020,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const user = (id: string, parentId: string | null, min: number, text: string) => ({
  type: "message",
  id,
  parentId,
  timestamp: at(min),
  message: { role: "user", content: text, timestamp: Date.parse(at(min)) },
});
const assistant = (id: string, parentId: string, min: number, text: string) => ({
  type: "message",
  id,
  parentId,
  timestamp: at(min),
  message: {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage,
    stopReason: "stop",
    timestamp: Date.parse(at(min)),
  },
});
const lines = (...records: object[]) => records.map((r) => `${JSON.stringify(r)}\n`).join("");

function write(root: string, text: string, append = false): void {
  mkdirSync(join(root, dirname(rel)), { recursive: true });
  writeFileSync(join(root, rel), text, { flag: append ? "a" : "w" });
}

function cli(...args: string[]): void {
  const r = spawnSync(
    process.execPath,
    [
      "--conditions=@pi-sessions/source",
      "--import",
      import.meta.resolve("tsx"),
      join(cliDir, "src", "main.ts"),
      ...args,
    ],
    { cwd: demo, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined } },
  );
  console.log(`$ pi-sessions ${args.join(" ")}`);
  process.stdout.write(r.stdout + r.stderr);
  console.log();
}

rmSync(demo, { recursive: true, force: true });
// Monday on the laptop: the session starts; Syncthing copies the folder to the desktop.
write(
  laptop,
  lines(
    {
      type: "session",
      version: 3,
      id: "019cadc6-9a80-7b0b-ae33-47ffbfd3f001",
      timestamp: at(0),
      cwd: "/home/me/shop",
    },
    user("a1000001", null, 1, "Add a /health endpoint to the server"),
    assistant("a1000002", "a1000001", 2, "Added GET /health returning {status:'ok'}."),
  ),
);
cpSync(laptop, desktop, { recursive: true });
// Apart: the desktop (offline) tries another route first…
write(
  desktop,
  lines(
    user("d2000001", "a1000002", 5, "Report the database status in /health too"),
    assistant("d2000002", "d2000001", 6, "/health now pings the database and reports db:'up'."),
  ),
  true,
);
// …the laptop goes on later, names the session, and labels the first answer.
write(
  laptop,
  lines(
    user("c3000001", "a1000002", 12, "Log every request with its duration"),
    assistant("c3000002", "c3000001", 13, "Added a request logger middleware."),
    {
      type: "label",
      id: "c3000003",
      parentId: "c3000002",
      timestamp: at(14),
      targetId: "a1000002",
      label: "health",
    },
    {
      type: "session_info",
      id: "c3000004",
      parentId: "c3000003",
      timestamp: at(15),
      name: "health + logging",
    },
  ),
  true,
);

console.log(
  "$ cd /tmp/pi-sync-demo   # laptop/ and desktop/ are the two machines' sessions roots\n",
);
cli("sync", "laptop", "desktop");
cli("tree", "019cadc6", "--dir", "desktop");

// What pi shows on the desktop: pi 1.6.0's own SessionManager on the synced file.
interface Node {
  entry: { id: string; type: string; message?: { role: string; content: unknown } };
  label?: string;
  children: Node[];
}
const pi = await loadReference<{
  SessionManager: {
    open(path: string): { getTree(): Node[]; getLeafId(): string; getSessionName(): string };
  };
}>();
const sm = pi.SessionManager.open(join(desktop, rel));
console.log("pi 1.6.0 on the desktop (SessionManager.open(file).getTree(), what /tree lists):");
const text = (n: Node) => {
  const m = n.entry.message;
  if (!m) return n.entry.type;
  const c = typeof m.content === "string" ? m.content : (m.content as { text?: string }[])[0]?.text;
  return `${m.role}: ${c}`;
};
const show = (nodes: Node[], depth: number): void => {
  for (const n of nodes) {
    const marks = `${n.label ? ` [${n.label}]` : ""}${n.entry.id === sm.getLeafId() ? " ← leaf" : ""}`;
    console.log(`${"  ".repeat(depth)}${n.entry.id} ${text(n)}${marks}`);
    show(n.children, depth + 1);
  }
};
show(sm.getTree(), 1);
console.log(`  name: ${sm.getSessionName()}`);
