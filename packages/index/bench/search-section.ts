/**
 * The search part of the index benchmark: p50/p95 of `search` for one- and three-word queries,
 * on rows that are up to date (`refresh: false`) and with the sync every search does by
 * default.
 *
 * The generated transcripts draw every word from a vocabulary of about 60, so each word is in
 * four entries of ten: the worst case for a ranked search, and unlike real transcripts, where
 * most words a person searches for are rare. Both kinds are measured: "frequent" queries are
 * words of that vocabulary; for "rare" ones the section first writes a few sessions whose
 * entries each hold three words of their own (each such word is then in about ten entries),
 * and a three-word rare query is one of those words with two vocabulary words of the same
 * entry (a distinctive word among common ones, as people type them).
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { userMessage } from "@pi-sessions/test-utils/pi-messages";
import { createRng, type Rng } from "../../core/bench/generate.js";
import type { SessionIndex } from "../src/index.js";
import type { Database } from "../src/sqlite.js";
import { statCheck } from "../src/stat-check.js";
import { percentile } from "./bench-table.js";
import { ms } from "./spawn-runs.js";

/** A made-up word of 8 letters: outside the generated vocabulary (checked by the caller). */
function rareWord(rng: Rng): string {
  const consonants = "bcdfghjklmnprstvz";
  const vowels = "aeiou";
  let word = "";
  for (let i = 0; i < 4; i++) word += rng.pick([...consonants]) + rng.pick([...vowels]);
  return word;
}

/**
 * Writes `files` sessions of `perFile` user entries under `dir`, each entry twelve vocabulary
 * words and three rare words; returns the words of every entry (its rare words first).
 */
function writeRareSessions(
  dir: string,
  vocabulary: readonly string[],
  rng: Rng,
  files = 10,
  perFile = 100,
): string[][] {
  const known = new Set(vocabulary);
  const rare: string[] = [];
  while (rare.length < 300) {
    const word = rareWord(rng);
    if (!known.has(word) && !rare.includes(word)) rare.push(word);
  }
  mkdirSync(dir, { recursive: true });
  const entries: string[][] = [];
  for (let f = 0; f < files; f++) {
    const id = `0197rare-${String(f).padStart(4, "0")}`;
    const start = Date.UTC(2025, 7, 1 + f);
    const lines: unknown[] = [
      { type: "session", version: 3, id, timestamp: new Date(start).toISOString(), cwd: "/rare" },
    ];
    let parentId: string | null = null;
    for (let i = 0; i < perFile; i++) {
      const words = [
        ...Array.from({ length: 3 }, () => rng.pick(rare)),
        ...Array.from({ length: 12 }, () => rng.pick(vocabulary)),
      ];
      entries.push(words);
      const text = [...words].sort(() => rng.next() - 0.5).join(" ");
      const entryId = `r${f}x${i}`;
      const timestamp = new Date(start + i * 1000).toISOString();
      const message = userMessage(`${text}.`, start + i * 1000);
      lines.push({ type: "message", id: entryId, parentId, timestamp, message });
      parentId = entryId;
    }
    writeFileSync(
      join(dir, `rare-${String(f).padStart(4, "0")}.jsonl`),
      lines.map((l) => `${JSON.stringify(l)}\n`).join(""),
    );
  }
  return entries;
}

/** Runs the search measurements and prints one line per kind of query. */
export async function searchSection(
  index: SessionIndex,
  look: Database,
  root: string,
  queries: number,
): Promise<void> {
  const rng = createRng(99);
  const vocabulary = [
    ...new Set(
      (
        look.prepare("SELECT text FROM entry_text LIMIT 2000").all() as unknown as {
          text: string;
        }[]
      ).flatMap((r) => r.text.match(/[a-z]{4,}/g) ?? []),
    ),
  ];
  const rareEntries = writeRareSessions(join(root, "--rare--"), vocabulary, rng);
  await index.sync(root);
  const entries = (
    look.prepare("SELECT count(*) AS n FROM entries").get() as unknown as { n: number }
  ).n;
  const frequent = (words: number) =>
    Array.from({ length: words }, () => rng.pick(vocabulary)).join(" ");
  const rare = (words: number) => {
    const entry = rng.pick(rareEntries);
    return (words === 1 ? [entry[0]] : [entry[0], entry[3], entry[4]]).join(" ");
  };
  // The floor of a search with the sync: the stat check alone (walk, one query, a stat per
  // file), on the same rows, in the same run.
  const checks: number[] = [];
  const checkCpus: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    statCheck(look, root);
    checks.push(ms(start));
    const used = process.cpuUsage(cpu);
    checkCpus.push((used.user + used.system) / 1000);
  }
  console.log(
    `the stat check alone (walk, one query, a stat per file): p50 ${percentile(checks, 0.5).toFixed(1)} ms, p95 ${percentile(checks, 0.95).toFixed(1)} ms; CPU p50 ${percentile(checkCpus, 0.5).toFixed(1)} ms, p95 ${percentile(checkCpus, 0.95).toFixed(1)} ms (20 runs); target for a search with the sync: p95 ≤ ${(percentile(checks, 0.95) + 60).toFixed(1)} ms`,
  );
  for (const [kind, make] of [
    ["frequent", frequent],
    ["rare", rare],
  ] as const) {
    for (const words of [1, 3]) {
      for (const refresh of [false, true]) {
        const times: number[] = [];
        // CPU time of each query too: on a loaded machine the wall clock mostly says how long
        // the process waited for a core.
        const cpus: number[] = [];
        let hits = 0;
        const n = refresh ? Math.max(20, Math.floor(queries / 10)) : queries;
        for (let q = 0; q < n; q++) {
          const query = make(words);
          const start = process.hrtime.bigint();
          const cpu = process.cpuUsage();
          hits += (await index.search(query, { dir: root, refresh })).length;
          times.push(ms(start));
          const used = process.cpuUsage(cpu);
          cpus.push((used.user + used.system) / 1000);
        }
        console.log(
          `search, ${words} ${kind} word${words === 1 ? "" : "s"}, ${refresh ? "with the sync before it" : "rows up to date (refresh: false)"}: p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms; CPU p50 ${percentile(cpus, 0.5).toFixed(1)} ms, p95 ${percentile(cpus, 0.95).toFixed(1)} ms (${n} queries over ${entries.toLocaleString("en")} entries, ${(hits / n).toFixed(1)} hits each)`,
        );
      }
    }
  }
}
