/**
 * The body of a pi-runtime test: runs one flow on both sides (in parallel, one process
 * each), prints the report, and fails with every problem found at once: a side that
 * crashed or threw in a step, pi's runtime not on the side's class, a member pi read that
 * ours lacks, pi calling the two managers differently, and any difference between the
 * files or listings that no SPEC §12 [Fix] row (fix-rows.ts) accepts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { FlowName } from "./child-env.js";
import { type Comparison, compareSides } from "./compare-sides.js";
import { FIX_ROWS, rowsAccepting } from "./fix-rows.js";
import { assertNodeForPi } from "./node-version.js";
import { callTable, countMismatches, describeDifference, firstOf } from "./report.js";
import type { SideLog } from "./run-side.js";
import { runSide, type SideRun } from "./spawn-side.js";

/** Problems of one side's run that make the comparison meaningless or show a bug. */
function runProblems(run: SideRun): string[] {
  if (!run.log) return [`${run.side}: the child exited ${run.code} without a log:\n${run.stderr}`];
  const problems = run.code === 0 ? [] : [`${run.side}: the child exited ${run.code}`];
  for (const step of run.log.steps) {
    if (step.error) problems.push(`${run.side}: step "${step.name}" threw ${step.error}`);
    if (step.routedTo !== run.side) {
      problems.push(
        `${run.side}: after "${step.name}" pi's runtime was not on ${run.side}'s class`,
      );
    }
  }
  for (const member of run.log.recorder.missing) {
    problems.push(`${run.side}: pi read SessionManager ${member}, which ours lacks`);
  }
  return problems;
}

function report(pi: SideLog, ours: SideLog, comparison: Comparison, runs: SideRun[]): string {
  const shown = FIX_ROWS.filter((row) => comparison.differences.some(row.accepts));
  const name = (r: (typeof FIX_ROWS)[number]) => `${r.row} (${r.title})`;
  return [
    `pi-runtime flow "${pi.flow}": ${pi.steps.length} steps, ${pi.fauxCalls} faux requests ` +
      `per side; compared ${comparison.files} paths, ${comparison.lines} lines, ` +
      `${pi.list.length} list() and ${pi.listAll.length} listAll() sessions; ` +
      runs.map((r) => `${r.side} ${r.ms} ms (Node ${r.log?.node})`).join(", "),
    `[Fix] rows that showed: ${shown.map(name).join(", ") || "none"}`,
    ...shown.map((r) => `  ${name(r)}: ${r.why}`),
    `[Fix] rows allowed but not seen: ${
      FIX_ROWS.filter((r) => !shown.includes(r))
        .map(name)
        .join(", ") || "none"
    }`,
    callTable(pi, ours),
  ].join("\n");
}

/** The `customType`s of the custom entries in `files` (those that exist). */
function customTypesIn(files: readonly string[]): string[] {
  const types = new Set<string>();
  for (const file of files) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.includes('"type":"custom"')) continue;
      const record = JSON.parse(line) as { customType?: unknown };
      if (typeof record.customType === "string") types.add(record.customType);
    }
  }
  return [...types];
}

/** What a flow must have produced, so that a pass is not vacuous. */
export interface FlowExpectations {
  /** pi's side must have reached at least this many session files. */
  readonly minSessionFiles: number;
  /** Custom entries the extension must have written into the files on both sides. */
  readonly customTypes: readonly string[];
  /** Titles of [Fix] rows (fix-rows.ts) that must show: the behaviour the flow exists for. */
  readonly mustShow: readonly string[];
}

/**
 * Runs `flow` over pi's SessionManager and over ours and checks the outcome (see the module
 * comment); `expected` guards against a vacuous pass. The temp roots are removed when the
 * test passes and kept (named in the failure) when it does not.
 */
export async function compareFlow(flow: FlowName, expected: FlowExpectations): Promise<void> {
  // Fails (never skips) on an old Node: a skipped comparison would read as a passing one.
  assertNodeForPi();
  // Same-length roots on both sides, so prompts (which contain the cwd) have the same size
  // and the faux model's token estimates match.
  const roots = [0, 1].map(() => mkdtempSync(join(tmpdir(), "pi-runtime-"))) as [string, string];
  const clockStart = Math.floor(Date.now() / 1000) * 1000;
  const runs = await Promise.all([
    runSide("pi", flow, roots[0], clockStart),
    runSide("ours", flow, roots[1], clockStart),
  ]);
  const [piRun, oursRun] = runs;
  const kept = `roots kept: ${roots.join(", ")}`;
  // The flow itself must work on pi's own manager, or the comparison shows nothing.
  expect(runProblems(piRun), `pi's side failed; ${kept}`).toEqual([]);
  expect(oursRun.log, `ours wrote no log (${kept}):\n${oursRun.stderr}`).toBeDefined();
  const pi = piRun.log as SideLog;
  const ours = oursRun.log as SideLog;
  expect(pi.sessionFiles.length, kept).toBeGreaterThanOrEqual(expected.minSessionFiles);
  // The extension's writes must really be in the files, or equal files would prove little.
  for (const log of [pi, ours]) {
    expect(customTypesIn(log.sessionFiles), `${log.side}'s custom entries; ${kept}`).toEqual(
      expect.arrayContaining([...expected.customTypes]),
    );
  }

  const comparison = compareSides(pi, ours);
  console.log(report(pi, ours, comparison, runs));
  const shown = FIX_ROWS.filter((row) => comparison.differences.some(row.accepts));
  const problems = [
    ...runProblems(oursRun),
    ...expected.mustShow
      .filter((title) => !shown.some((row) => row.title === title))
      .map((title) => `the [Fix] row "${title}" did not show: the flow did not test it`),
    ...countMismatches(pi, ours, "pi").map((m) => `pi's calls differ: ${m}`),
    ...(pi.fauxCalls === ours.fauxCalls
      ? []
      : [`faux requests: pi ${pi.fauxCalls}, ours ${ours.fauxCalls}`]),
    // One wrong entry shifts the numbering of everything after it; the first few tell.
    ...firstOf(
      comparison.differences
        .filter((d) => rowsAccepting(d).length === 0)
        .map((d) => `not a [Fix] row: ${describeDifference(d)}`),
      12,
    ),
  ];
  expect(problems, kept).toEqual([]);
  for (const root of roots) rmSync(root, { recursive: true, force: true });
}
