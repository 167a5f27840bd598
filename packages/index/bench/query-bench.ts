/**
 * One large session's tree, context and usage through a warm session index, against the
 * reference's `SessionManager.open(path)` followed by the same query, in the same process:
 *
 *   node --conditions=@pi-sessions/source --import tsx packages/index/bench/query-bench.ts \
 *     [--entries N] [--shape bushy|linear] [--rounds R] [--depth D] [--only QUERY] [--json FILE] [--keep]
 *
 * Defaults: 100,000 entries of core's BUSHY generator (about 64 MiB; the issue's full size is
 * `--entries 1000000`), 5 rounds; `pnpm bench` runs the defaults, about a minute. Each of our
 * runs opens the index, syncs the file (an unchanged file: one `fstat` and one line's hash),
 * answers the query and closes; each reference run opens the file and asks the same:
 * - tree --depth D (default 3): `getTree()` cut at D levels, each cut counting the entries it
 *   hides, and each shown record; ours: the index's tree top (core's `treeOf` over the top
 *   D + 1 levels, its counts from the rows' parent lines) and each shown record read;
 * - tree, every record read: core's `treeOf` over the index's entries (tree fields from the
 *   rows, records read when read) with every record read (what `tree` without `--depth` would
 *   read through the index: it reads the file);
 * - context: `buildSessionContext()`; ours: core's `buildSessionProjection` over the leaf's
 *   path, records read from the last compaction on;
 * - usage: the plugins' `computeUsageTotals` over `getEntries()` at `getLeafId()`; ours: the
 *   same over the index's session: the usage state it saved, and the leaf's path read.
 * Each round runs ours, then the reference's, measuring wall time and this process's CPU time
 * (user + system); the table gives the medians and every run. `--only` runs the queries whose
 * name starts with it; `--json` writes the runs, ratios and the load average to a file.
 * The file is in the page cache after generation (a warm disk). Exits 1 if any answer differs
 * from the reference's.
 */

import {
  closeSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import {
  buildSessionProjection,
  replayState,
  type SessionEntry,
  type SessionTreeNode,
  treeOf,
} from "@pi-sessions/core";
import { computeUsageTotals } from "@pi-sessions/plugins";
import { REFERENCE_SESSION_MODULE } from "@pi-sessions/test-utils/reference";
import { flagValue, numberFlag } from "../../core/bench/flags.js";
import { generateLines, type Shape } from "../../core/bench/generate.js";
import { type IndexedSession, openSessionIndex } from "../src/index.js";

interface RefTreeNode {
  entry: { id: string };
  children: RefTreeNode[];
  label?: string;
}

interface RefManager {
  getTree(): RefTreeNode[];
  buildSessionContext(): { messages: unknown[]; thinkingLevel: string; model: unknown };
  getEntries(): SessionEntry[];
  getLeafId(): string | null;
}

interface RefModule {
  SessionManager: { open(path: string): RefManager };
}

const now = () => process.hrtime.bigint();
const since = (start: bigint) => Number(now() - start) / 1e6;
/** This process's CPU time (user + system) in ms since `start` (a `process.cpuUsage()`). */
const cpuSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

const median = (values: readonly number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

/** Streams the generated session into `path` in 4 MiB writes; returns its bytes. */
function writeSession(path: string, shape: Shape, entries: number): number {
  const fd = openSync(path, "w");
  let pending: string[] = [];
  let size = 0;
  const flush = () => {
    writeSync(fd, pending.join(""));
    pending = [];
    size = 0;
  };
  generateLines(shape, entries, (line) => {
    pending.push(line, "\n");
    size += line.length + 1;
    if (size > 4 * 2 ** 20) flush();
  });
  flush();
  closeSync(fd);
  return statSync(path).size;
}

/** Ids and labels of a tree in pre-order (iterative: a linear tree is a million deep). */
function flatten(roots: readonly { entry: { id: string }; children: unknown[]; label?: string }[]) {
  const out: string[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as RefTreeNode;
    out.push(node.label === undefined ? node.entry.id : `${node.entry.id}[${node.label}]`);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as RefTreeNode);
  }
  return out;
}

/**
 * Ids and labels of a tree's top `depth` levels in pre-order, each cut node followed by how
 * many entries it hides; `record` reads a shown entry's record (for its type).
 */
function flattenTop<N extends RefTreeNode>(
  roots: readonly N[],
  depth: number,
  below: (node: N) => number,
  record: (node: N) => { type: string },
) {
  const out: string[] = [];
  const stack: [N, number][] = [...roots].reverse().map((n) => [n, 1]);
  while (stack.length > 0) {
    const [node, level] = stack.pop() as [N, number];
    const label = node.label === undefined ? "" : `[${node.label}]`;
    out.push(`${node.entry.id}${label} ${record(node).type}`);
    if (level === depth && node.children.length > 0) out.push(`… ${below(node)}`);
    else {
      for (let i = node.children.length - 1; i >= 0; i--)
        stack.push([node.children[i] as N, level + 1]);
    }
  }
  return out;
}

/** Entries below a node of a whole tree. */
function descendants(node: RefTreeNode): number {
  let count = 0;
  const stack = [...node.children];
  while (stack.length > 0) {
    count++;
    for (const c of (stack.pop() as RefTreeNode).children) stack.push(c);
  }
  return count;
}

/** Our side of each query: the index opened, the file synced, the answer, all closed. */
function ours<T>(indexFile: string, path: string, query: (s: IndexedSession) => T): T {
  const index = openSessionIndex({ file: indexFile, onNotice: (m) => console.error(m) });
  try {
    const session = index.session(path);
    if (session === null) throw new Error(`the index does not answer for ${path}`);
    try {
      return query(session);
    } finally {
      session.close();
    }
  } finally {
    index.close();
  }
}

const DEPTH = numberFlag("depth", 3);

const QUERIES = {
  [`tree --depth ${DEPTH}`]: {
    ours: (s: IndexedSession) => {
      const top = s.treeTop(DEPTH);
      return flattenTop(
        top.roots as (SessionTreeNode & RefTreeNode)[],
        DEPTH,
        (n) => top.below(n),
        (n) => top.recordOf(n.entry),
      );
    },
    ref: (m: RefManager) =>
      flattenTop(m.getTree(), DEPTH, descendants, (n) => n.entry as unknown as { type: string }),
  },
  "tree, every record read": {
    ours: (s: IndexedSession) => {
      const tree = flatten(treeOf(replayState(s.header, s.entries())) as SessionTreeNode[]);
      for (let i = 0; i < s.entryCount; i++) s.entryAt(i);
      return tree;
    },
    ref: (m: RefManager) => flatten(m.getTree()),
  },
  context: {
    ours: (s: IndexedSession) => {
      const { messages, thinkingLevel, model } = buildSessionProjection(
        s.contextPath(s.leafId),
        s.leafId,
      );
      return { messages, thinkingLevel, model };
    },
    ref: (m: RefManager) => m.buildSessionContext(),
  },
  usage: {
    ours: (s: IndexedSession) => computeUsageTotals(s.usageSession(s.leafId), s.leafId),
    ref: (m: RefManager) => computeUsageTotals(m.getEntries(), m.getLeafId()),
  },
} as const;

async function main(): Promise<void> {
  const entries = numberFlag("entries", 100_000);
  const rounds = numberFlag("rounds", 5);
  const shape = (flagValue("shape") ?? "bushy") as Shape;
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-query-bench-"));
  const path = join(dir, "session.jsonl");
  const indexFile = join(dir, "index.sqlite");
  let same = true;
  try {
    const bytes = writeSession(path, shape, entries);
    const ref = (await import(REFERENCE_SESSION_MODULE.href)) as RefModule;
    const build = now();
    const path0 = ours(indexFile, path, (s) => s.contextPath(s.leafId).length);
    console.log(
      `${shape} session, ${entries.toLocaleString("en")} entries, ${(bytes / 2 ** 20).toFixed(0)} MiB; leaf path ${path0.toLocaleString("en")} entries; index built in ${since(build).toFixed(0)} ms (${dir})`,
    );
    console.log(
      `\n${"".padEnd(30)}${"ours".padStart(8)}${"reference".padStart(11)}${"ref/ours".padStart(10)}   runs (ms, ours | ref)`,
    );
    const only = flagValue("only");
    const results: Record<string, unknown> = {};
    for (const [name, q] of Object.entries(QUERIES)) {
      if (only !== undefined && !name.startsWith(only)) continue;
      const runs = {
        oursWall: [] as number[],
        refWall: [] as number[],
        oursCpu: [] as number[],
        refCpu: [] as number[],
      };
      let answers: [unknown, unknown] = [undefined, undefined];
      for (let r = 0; r < rounds; r++) {
        let start = now();
        let cpu = process.cpuUsage();
        const a = ours(indexFile, path, q.ours as (s: IndexedSession) => unknown);
        runs.oursWall.push(since(start));
        runs.oursCpu.push(cpuSince(cpu));
        start = now();
        cpu = process.cpuUsage();
        const b = (q.ref as (m: RefManager) => unknown)(ref.SessionManager.open(path));
        runs.refWall.push(since(start));
        runs.refCpu.push(cpuSince(cpu));
        if (r === 0) answers = [a, b];
      }
      const equal = isDeepStrictEqual(answers[0], answers[1]);
      same &&= equal;
      const fixed = (values: number[]) => values.map((t) => t.toFixed(0)).join(" ");
      for (const kind of ["wall", "CPU"] as const) {
        const o = median(kind === "wall" ? runs.oursWall : runs.oursCpu);
        const f = median(kind === "wall" ? runs.refWall : runs.refCpu);
        const oursRuns = kind === "wall" ? runs.oursWall : runs.oursCpu;
        const refRuns = kind === "wall" ? runs.refWall : runs.refCpu;
        console.log(
          `${`${name}, ${kind}`.padEnd(30)}${o.toFixed(0).padStart(8)}${f.toFixed(0).padStart(11)}${`${(f / o).toFixed(1)}×`.padStart(10)}   ${fixed(oursRuns)} | ${fixed(refRuns)}${equal ? "" : "  ANSWERS DIFFER"}`,
        );
      }
      results[name] = {
        equal,
        wallRatio: median(runs.refWall) / median(runs.oursWall),
        cpuRatio: median(runs.refCpu) / median(runs.oursCpu),
        ...runs,
      };
    }
    console.log(`\nevery answer equal to the reference's: ${same}`);
    const out = flagValue("json");
    if (out !== undefined) {
      const load = loadavg().map((l) => Number(l.toFixed(2)));
      writeFileSync(
        out,
        `${JSON.stringify({ shape, entries, bytes, rounds, load, results }, null, 1)}\n`,
      );
    }
    if (!same) process.exitCode = 1;
  } finally {
    if (!process.argv.includes("--keep")) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
