/**
 * Writes a generated pi session of about `megabytes` MB, shaped like a long-lived real one: a
 * conversation of prompts, assistant turns with tool calls and usage, and tool results whose
 * line sizes follow the corpus (median ≈ 680 B, mean ≈ 1.2 kB, p90 ≈ 2.4 kB, some tens of kB);
 * a compaction every ~15,000 entries (its first kept entry a few dozen back, a summary of a few
 * kB), an abandoned branch with a branch summary every ~5,000, model and thinking-level
 * changes, labels and a name. Deterministic for a seed; streamed to disk in 4 MB writes.
 */

import { closeSync, openSync, writeSync } from "node:fs";

/** A seeded PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the session file entry parent leaf branch context model tool call result read write edit " +
  "bash test build error fix function module import export type interface value state append"
).split(" ");

/** What was written. */
export interface GiantSession {
  readonly bytes: number;
  readonly entries: number;
  readonly compactions: number;
  readonly branches: number;
  /** Entries on the path to the last entry (the leaf a load ends at). */
  readonly cwd: string;
}

/** Writes the session to `path` (see the module comment). */
export function writeGiantSession(
  path: string,
  megabytes: number,
  cwd: string,
  seed = 1,
): GiantSession {
  const random = rng(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const prose = (chars: number) => {
    let out = "";
    while (out.length < chars) out += `${WORDS[Math.floor(random() * WORDS.length)]} `;
    return out.slice(0, chars);
  };
  /** Tool result text sizes: lognormal around 450 chars, a long tail to ~40 kB. */
  const resultChars = () =>
    Math.min(40_000, Math.round(Math.exp(6.1 + random() * 1.6 + (random() < 0.02 ? 2.5 : 0))));
  const fd = openSync(path, "w", 0o600);
  let buffered: string[] = [];
  let pending = 0;
  let bytes = 0;
  const put = (record: unknown) => {
    const line = `${JSON.stringify(record)}\n`;
    buffered.push(line);
    pending += line.length;
    bytes += Buffer.byteLength(line);
    if (pending > 4 << 20) {
      writeSync(fd, buffered.join(""));
      buffered = [];
      pending = 0;
    }
  };
  let ms = Date.UTC(2025, 0, 1);
  const iso = () => new Date(ms).toISOString();
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");
  put({
    type: "session",
    version: 3,
    id: `01940000-${hex(4)}-7${hex(3)}-8${hex(3)}-${hex(12)}`,
    timestamp: iso(),
    cwd,
  });
  const path_: string[] = []; // ids on the current branch, root → leaf
  let entries = 0;
  let compactions = 0;
  let branches = 0;
  const seen = new Set<string>();
  const add = (fields: Record<string, unknown>) => {
    ms += int(300, 4000);
    let id = hex(8);
    // Unique, as pi's ids are: a repeated id would make a cycle of the tree (SPEC W14, W15).
    while (seen.has(id)) id = hex(8);
    seen.add(id);
    put({ type: fields.type, id, parentId: path_.at(-1) ?? null, timestamp: iso(), ...fields });
    path_.push(id);
    entries++;
    return id;
  };
  const usage = () => {
    const input = int(1, 4000);
    const output = int(20, 900);
    const cacheRead = int(0, 60000);
    const cacheWrite = int(0, 3000);
    const cost = {
      input: input * 3e-6,
      output: output * 15e-6,
      cacheRead: cacheRead * 3e-7,
      cacheWrite: cacheWrite * 3.75e-6,
      total: 0,
    };
    cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
    return {
      input,
      output,
      cacheRead,
      cacheWrite,
      totalTokens: input + output + cacheRead + cacheWrite,
      cost,
    };
  };
  add({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
  add({ type: "thinking_level_change", thinkingLevel: "medium" });
  add({ type: "session_info", name: "Generated long-running session" });
  while (bytes < megabytes * 1024 * 1024) {
    add({
      type: "message",
      message: {
        role: "user",
        content: [{ type: "text", text: prose(int(80, 500)) }],
        timestamp: ms,
      },
    });
    for (let step = int(1, 6); step > 0; step--) {
      const call = `toolu_${hex(24)}`;
      const name = WORDS[int(0, 4)] === "the" ? "bash" : "read";
      const content = [
        { type: "text", text: prose(int(30, 300)) },
        {
          type: "toolCall",
          id: call,
          name,
          arguments: { path: `/work/project/src/${prose(12).trim()}.ts` },
        },
      ];
      add({
        type: "message",
        message: {
          role: "assistant",
          content,
          api: "anthropic-messages",
          provider: "anthropic",
          model: "claude-sonnet-4-5",
          usage: usage(),
          stopReason: "toolUse",
          timestamp: ms,
        },
      });
      const text = prose(resultChars());
      add({
        type: "message",
        message: {
          role: "toolResult",
          toolCallId: call,
          toolName: name,
          content: [{ type: "text", text }],
          isError: random() < 0.04,
          timestamp: ms,
        },
      });
    }
    add({
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: prose(int(100, 900)) }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: usage(),
        stopReason: "stop",
        timestamp: ms,
      },
    });
    if (random() < 0.004)
      add({ type: "thinking_level_change", thinkingLevel: ["low", "medium", "high"][int(0, 2)] });
    if (random() < 0.01)
      add({
        type: "label",
        targetId: path_[Math.max(0, path_.length - int(1, 40))],
        label: "checkpoint",
      });
    // An abandoned branch: back to an entry ~30 earlier, with a summary of what was left.
    if (entries - branches * 5000 > 5000 && path_.length > 40) {
      const from = path_.at(-1);
      path_.length -= int(10, 30);
      add({ type: "branch_summary", fromId: from, summary: prose(int(300, 1200)) });
      branches++;
    }
    if (entries - compactions * 15000 > 15000 && path_.length > 100) {
      const firstKept = path_[path_.length - int(20, 80)];
      add({
        type: "compaction",
        summary: `## Goal\n${prose(int(1500, 4000))}`,
        firstKeptEntryId: firstKept,
        tokensBefore: int(150000, 190000),
        details: { readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] },
      });
      compactions++;
    }
  }
  if (buffered.length > 0) writeSync(fd, buffered.join(""));
  closeSync(fd);
  return { bytes, entries, compactions, branches, cwd };
}
