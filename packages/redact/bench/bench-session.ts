/**
 * The benchmark's session file: the real corpus sessions' records (tool calls, tool output,
 * code, escapes) repeated under fresh ids into one linear v3 session of the size asked for, with
 * a user message holding fake secrets (a GitHub token, an AWS key pair, a database URL) every
 * {@link SECRET_EVERY} entries, each secret new, and each echoed once later without its context.
 */
import { readFileSync } from "node:fs";
import { corpusFile } from "@pi-sessions/test-utils/corpus";

/** One planted message every this many entries. */
export const SECRET_EVERY = 2000;

const CORPUS = ["large-session.jsonl", "before-compaction.jsonl", "ref-1.6-branched.jsonl"];

function fake(alphabet: string, n: number, seed: number): string {
  let out = "";
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += alphabet[(x >>> 8) % alphabet.length];
  }
  return out;
}

const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A session of about `bytes` bytes and how many secret messages it holds. */
export function benchSession(bytes: number): { text: string; planted: number } {
  const records = CORPUS.flatMap((f) =>
    readFileSync(corpusFile(f), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r.type !== "session"),
  );
  const header = {
    type: "session",
    version: 3,
    id: "0190a000-0000-7000-8000-000000000000",
    timestamp: "2026-01-01T00:00:00.000Z",
    cwd: "/home/dev/project",
  };
  const lines = [JSON.stringify(header)];
  let size = lines[0]?.length ?? 0;
  let parent: string | null = null;
  let n = 0;
  let planted = 0;
  const echo: string[] = [];
  while (size < bytes) {
    for (const record of records) {
      const id = n.toString(16).padStart(8, "0");
      let entry: Record<string, unknown> = { ...record, id, parentId: parent };
      if (n % SECRET_EVERY === SECRET_EVERY - 1) {
        const token = `ghp_${fake(AN, 36, n)}`;
        const aws = fake(`${AN}/+`, 40, n + 1);
        const text = `deploy with GITHUB_TOKEN=${token}\nAWS_SECRET_ACCESS_KEY=${aws}\nDATABASE_URL=postgres://app:${fake(AN, 16, n + 2)}@db.internal:5432/app\n${echo.join(" ")}`;
        echo.length = 0;
        echo.push(`(old key was ${aws})`);
        entry = {
          type: "message",
          id,
          parentId: parent,
          timestamp: record.timestamp,
          message: { role: "user", content: text, timestamp: 0 },
        };
        planted++;
      }
      const line = JSON.stringify(entry);
      lines.push(line);
      size += line.length + 1;
      parent = id;
      n++;
      if (size >= bytes) break;
    }
  }
  return { text: `${lines.join("\n")}\n`, planted };
}
