/**
 * Redacting a big session (100 MB by default) against reading it: the floor is
 * `readFileSync` + `split` + `JSON.parse` of every line, measured in the same process with
 * rounds interleaved; the ratio is `redactSession` (reading the file included) over the floor,
 * in CPU time and in wall time, medians of the rounds (a full GC before each sample, so no
 * sample pays for the garbage of the one before). Also, once, what the same rule set (the
 * redactor's own detectors, options and 4 MB batches) costs when it is handed every string of
 * the file with no literal gate.
 *
 * Run: pnpm bench [-- --mb N --rounds R]
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redactSession } from "../src/index.js";
import { BATCH_CHARS } from "../src/redact/detect-pass.js";
import { secretlintRules } from "../src/rules/secretlint-rules.js";
import { benchSession } from "./bench-session.js";

const flag = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const mb = flag("mb", 100);
const rounds = flag("rounds", 5);

const dir = mkdtempSync(join(tmpdir(), "pi-redact-bench-"));
const file = join(dir, "big.jsonl");
const { text, planted } = benchSession(mb * 1024 * 1024);
writeFileSync(file, text);
const bytes = statSync(file).size;

interface Sample {
  cpu: number;
  wall: number;
}
/** `--expose-gc` (the bench script passes it) makes `gc` a global. */
const gc = (globalThis as { gc?: () => void }).gc;
async function measure(fn: () => unknown): Promise<Sample> {
  gc?.();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1000, wall };
}
const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const floor = (): number => {
  let n = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line !== "") {
      JSON.parse(line);
      n++;
    }
  }
  return n;
};
let report = "";
const redact = async (): Promise<void> => {
  const r = await redactSession(readFileSync(file, "utf8"));
  report = `${r.report.secrets} secrets, ${r.report.occurrences} places`;
};

await redact(); // warm-up: probes the rules, compiles the regexes
const floors: Sample[] = [];
const redacts: Sample[] = [];
for (let r = 0; r < rounds; r++) {
  floors.push(await measure(floor));
  redacts.push(await measure(redact));
}

// Every string of the file through each of the redactor's detectors in its batches: the
// rule set's own cost without the gate (no splicing, no second pass).
const { detectors } = await secretlintRules();
const allStrings = async (): Promise<void> => {
  let batch: string[] = [];
  let size = 0;
  const flush = async () => {
    for (const d of detectors) await d.detect(batch);
    batch = [];
    size = 0;
  };
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      batch.push(v);
      size += v.length;
    } else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line === "") continue;
    walk(JSON.parse(line));
    if (size >= BATCH_CHARS) await flush();
  }
  await flush();
};
const ungated = await measure(allStrings);

const f = { cpu: median(floors.map((s) => s.cpu)), wall: median(floors.map((s) => s.wall)) };
const x = { cpu: median(redacts.map((s) => s.cpu)), wall: median(redacts.map((s) => s.wall)) };
const ms = (n: number) => `${n.toFixed(0)} ms`;
console.log(
  `redact bench: ${(bytes / 1024 / 1024).toFixed(1)} MB session, ${planted} planted messages (${report}); ${rounds} rounds, medians`,
);
console.log(
  `  floor (read + split + JSON.parse every line)   cpu ${ms(f.cpu)}  wall ${ms(f.wall)}`,
);
console.log(
  `  redactSession (read included)                  cpu ${ms(x.cpu)}  wall ${ms(x.wall)}`,
);
console.log(
  `  ratio redact / floor                           cpu ${(x.cpu / f.cpu).toFixed(2)}×  wall ${(x.wall / f.wall).toFixed(2)}×`,
);
console.log(
  `  rule set on every string, no gate (1 run)      cpu ${ms(ungated.cpu)} (${(ungated.cpu / f.cpu).toFixed(1)}× floor)  wall ${ms(ungated.wall)}`,
);
console.log(
  `  rounds cpu ms: floor [${floors.map((s) => s.cpu.toFixed(0)).join(", ")}], redact [${redacts.map((s) => s.cpu.toFixed(0)).join(", ")}]`,
);
rmSync(dir, { recursive: true, force: true });
