/**
 * A usage counter over a pi sessions root (`~/.pi/agent/sessions`), written the way a quick
 * third-party tool is: it reads the JSONL itself and sums the token counts and costs of every
 * usage record (assistant and tool-result messages, compaction and branch summaries, `usage`
 * entries), trying not to count a fork's copied records twice.
 *
 * It has two bugs on purpose, both seen in real tools; the tests find them with the testkit:
 *
 * 1. **Forks.** A file whose `parentSession` resolves is taken to start with its parent's
 *    conversation, so it skips the records on the parent's *current branch*. But a fork copies
 *    the whole tree, abandoned branches included, and a branched session may copy an abandoned
 *    branch: those copies count twice.
 * 2. **Collisions.** Elsewhere it drops "repeated" records by (timestamp, totalTokens), across
 *    the whole root, which also drops a real record of another session that happens to share
 *    the millisecond and the token count.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** What {@link countUsage} reports. */
export interface CounterTotals {
  /** Usage records counted. */
  records: number;
  totalTokens: number;
  /** Sum of `cost.total`. */
  cost: number;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Every JSON object line of a file (bad lines skipped). */
function records(path: string): Json[] {
  const out: Json[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    try {
      const value: unknown = JSON.parse(line);
      if (isObject(value)) out.push(value);
    } catch {
      // a torn or garbage line: not a record
    }
  }
  return out;
}

/** The usage object a record carries, if any. */
function usageOf(r: Json): Json | undefined {
  const m = r.message;
  if (r.type === "message" && isObject(m) && (m.role === "assistant" || m.role === "toolResult")) {
    return isObject(m.usage) ? m.usage : undefined;
  }
  if (r.type === "compaction" || r.type === "branch_summary" || r.type === "usage") {
    return isObject(r.usage) ? r.usage : undefined;
  }
  return undefined;
}

const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);

function tokens(u: Json): number {
  const t = u.totalTokens;
  if (typeof t === "number" && Number.isFinite(t) && t >= 0) return t;
  return count(u.input) + count(u.output) + count(u.cacheRead) + count(u.cacheWrite);
}

/** The ids on a file's current branch: root → its last entry. */
function currentBranch(entries: readonly Json[]): Set<string> {
  const byId = new Map<unknown, Json>();
  for (const e of entries) if (typeof e.id === "string") byId.set(e.id, e);
  const ids = new Set<string>();
  let at = [...entries].reverse().find((e) => typeof e.id === "string");
  while (at && !ids.has(at.id as string)) {
    ids.add(at.id as string);
    at = byId.get(at.parentId);
  }
  return ids;
}

/** Sums the usage of every session file under `root` (see the module note for its bugs). */
export function countUsage(root: string): CounterTotals {
  const totals: CounterTotals = { records: 0, totalTokens: 0, cost: 0 };
  const seen = new Set<string>();
  for (const dir of readdirSync(root)) {
    for (const name of readdirSync(join(root, dir)).filter((n) => n.endsWith(".jsonl"))) {
      const all = records(join(root, dir, name));
      const header = all.find((r) => r.type === "session");
      const parent = header?.parentSession;
      // Bug 1: the parent's current branch stands for "what the fork copied".
      const copied =
        typeof parent === "string" && existsSync(parent)
          ? currentBranch(records(parent).filter((r) => r.type !== "session"))
          : undefined;
      for (const r of all) {
        const u = usageOf(r);
        if (!u) continue;
        if (copied) {
          if (copied.has(r.id as string)) continue;
        } else {
          // Bug 2: one key for the whole root, so another session's equal record is dropped.
          const key = `${r.timestamp}|${tokens(u)}`;
          if (seen.has(key)) continue;
          seen.add(key);
        }
        totals.records++;
        totals.totalTokens += tokens(u);
        totals.cost += isObject(u.cost) ? count(u.cost.total) : 0;
      }
    }
  }
  return totals;
}
