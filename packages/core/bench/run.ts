/**
 * `pnpm bench`: ours vs the reference SessionManager vs a raw JSON.parse baseline, on
 * generated LINEAR and BUSHY sessions of 1k / 10k / 100k entries, all in one process.
 * Prints a table per session, append cost by size, the target checks, and writes
 * `bench/results.json`.
 *
 * Flags: `--quick` (1k and 10k only), `--sizes=1000,5000`, `--shapes=linear|bushy`,
 * `--out=path` (default bench/results.json).
 */

import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { type GeneratedSession, generateSession, messagePool, type Shape } from "./generate.js";
import { timeOnce } from "./harness.js";
import { loadReference } from "./reference.js";
import {
  appendFlatness,
  type Check,
  checksTable,
  resultsJson,
  sessionChecks,
  sessionTable,
} from "./report.js";
import { appendScenarios, type Row, runScenarios } from "./scenarios.js";

interface Args {
  quick: boolean;
  sizes: number[];
  shapes: Shape[];
  out: string;
}

function parseArgs(argv: readonly string[]): Args {
  const flags = argv.filter((a) => a !== "--");
  const value = (name: string): string | undefined =>
    flags.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const quick = flags.includes("--quick");
  const sizes =
    value("sizes")
      ?.split(",")
      .map((s) => Number(s))
      .filter((n) => Number.isInteger(n) && n > 0) ??
    (quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]);
  const shapes = (value("shapes")?.split(",") ?? ["linear", "bushy"]).filter(
    (s): s is Shape => s === "linear" || s === "bushy",
  );
  const out = value("out") ?? fileURLToPath(new URL("./results.json", import.meta.url));
  return { quick, sizes, shapes, out };
}

const sizeName = (n: number): string => (n % 1000 === 0 ? `${n / 1000}k` : String(n));

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = process.hrtime.bigint();
  const ref = await loadReference();
  const pool = messagePool();
  const rows: Row[] = [];
  const checks: Check[] = [];
  const sessions: Record<string, unknown>[] = [];
  const largest = Math.max(...args.sizes);

  console.log(
    `@pi-sessions/core bench — node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? "cpu"}` +
      `${args.quick ? " (quick)" : ""}`,
  );
  console.log(
    "cells: median (min) per call. ours/ref: ratio of medians; (of mins): ratio of minimums;\n" +
      "ours/base: ours ÷ the raw split + JSON.parse baseline, same session, same process.\n",
  );

  for (const shape of args.shapes) {
    const generated: GeneratedSession[] = [];
    for (const size of args.sizes) {
      const { value: session, ms } = timeOnce(() => generateSession(shape, size));
      generated.push(session);
      const t0 = process.hrtime.bigint();
      const sessionRows = runScenarios(session, ref, pool);
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      rows.push(...sessionRows);
      checks.push(...sessionChecks(sessionRows, size === largest && size >= 100_000));
      sessions.push({
        shape,
        size,
        bytes: session.bytes,
        generateMs: Math.round(ms),
        benchS: seconds,
      });
      const title =
        `== ${shape} ${sizeName(size)} entries, ${(session.bytes / 1e6).toFixed(1)} MB ` +
        `(generated in ${(ms / 1e3).toFixed(1)} s, measured in ${seconds.toFixed(1)} s)`;
      console.log(`${sessionTable(sessionRows, title)}\n`);
    }
    const t0 = process.hrtime.bigint();
    rows.push(...appendScenarios(generated, ref, pool));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(
      `== append, ${shape}, all sizes in the same rounds (measured in ${seconds.toFixed(1)} s)`,
    );
    const flat = appendFlatness(rows, shape);
    checks.push(...flat.checks);
    console.log(`${flat.table}\n`);
  }

  console.log(checksTable(checks));
  console.log(
    "\nopen: text → fromJsonl is ours' public text → manager path (parseJsonl with per-line\n" +
      "  diagnostics, migrate, replay; owns the records). parse + inMemory is the reference's\n" +
      "  path, where ours deep-copies every entry (W20). * adopt = the protected replay path\n" +
      "  (records owned, no parse), compared with the reference's inMemory(records).",
  );
  const totalS = Number(process.hrtime.bigint() - started) / 1e9;
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model,
    cpus: cpus().length,
    quick: args.quick,
    totalS: Math.round(totalS * 10) / 10,
    sessions,
  };
  writeFileSync(args.out, resultsJson(meta, rows, checks));
  console.log(`\nwrote ${args.out} — total ${totalS.toFixed(1)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
