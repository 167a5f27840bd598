/**
 * The scripted session the README runs: three turns on one branch with a compaction, a branch
 * back to the first answer (with a summary of what was left), a switch to a bigger model, and
 * a fork of the first turn into a new session. Usage totals are printed after every turn and,
 * at the end, over both sessions without counting the fork's copied entries twice.
 */
import {
  createDeterministicEnv,
  type FileEntry,
  type SessionEntry,
  type SessionHeader,
  SessionManager,
} from "@pi-sessions/core";
import {
  computeSessionsUsageTotals,
  type SessionsUsageTotals,
  type UsageTotals,
  usageTotals,
} from "@pi-sessions/plugins";
import { compactIfNeeded, runTurn, type TurnReport } from "./agent.js";
import { ScriptedModel } from "./scripted-model.js";

/** A session's records as the demo hands them to the directory total. */
export interface SessionRecords {
  readonly header: SessionHeader | null;
  readonly entries: SessionEntry[];
}

/** Everything the demo produced, for the test and for printing. */
export interface DemoResult {
  readonly turns: readonly TurnReport[];
  /** Whether the third turn's context was compacted before it ran. */
  readonly compacted: boolean;
  readonly original: SessionRecords & { readonly manager: SessionManager };
  readonly fork: SessionRecords & { readonly manager: SessionManager };
  /** Entries of the original that the fork copied. */
  readonly copiedIds: readonly string[];
  readonly combined: SessionsUsageTotals;
}

/** One line of totals: calls, tokens and cost. */
export function usageLine(t: UsageTotals): string {
  return `${t.records} calls, ${t.totalTokens} tokens (${t.cacheRead} cached), $${t.cost.total.toFixed(6)}`;
}

/** The fork's clock starts an hour after the original's, as a later /fork would. */
const HOUR = 3_600_000;

function newSession(startMs: number, records?: FileEntry[]): SessionManager {
  // Deterministic ids and clock (one second per tick), and usage totals folded on every append.
  const env = createDeterministicEnv({ seed: startMs % 1000, startMs, stepMs: 1000 });
  return SessionManager.inMemory("/toy", { env, projections: [usageTotals] }, records);
}

function report(print: (line: string) => void, label: string, turn: TurnReport): void {
  print(`\n${label}: "${turn.prompt}"`);
  turn.contexts.forEach((roles, i) => {
    print(`  call ${i + 1} context: [${roles.join(", ")}]`);
  });
  print(`  answer: ${turn.answer}`);
  print(`  usage on this branch: ${usageLine(turn.usage.branch)}`);
  print(`  usage in the whole tree: ${usageLine(turn.usage.tree)}`);
}

/** Runs the scripted session; `print` receives the narration (silent by default). */
export function runDemo(print: (line: string) => void = () => {}): DemoResult {
  const model = new ScriptedModel();
  const start = Date.UTC(2025, 0, 1);
  const sm = newSession(start);
  sm.appendModelChange("toy", "small");
  const turns: TurnReport[] = [];

  turns.push(runTurn(sm, model, "List the files"));
  report(print, "Turn 1", turns[0] as TurnReport);
  const firstAnswer = sm.getLeafId() as string;

  turns.push(runTurn(sm, model, "Read README.md"));
  report(print, "Turn 2", turns[1] as TurnReport);

  const compacted = compactIfNeeded(sm, model, 6);
  if (compacted) print("\n(compacted: the next context starts with the summary)");
  turns.push(runTurn(sm, model, "Read src/index.ts"));
  report(print, "Turn 3", turns[2] as TurnReport);

  // Back to the first answer: summarise the abandoned path, then switch models.
  const summary = model.summarize(sm.buildSessionContext());
  sm.branchWithSummary(firstAnswer, summary.summary, undefined, false, summary.usage);
  sm.appendModelChange("toy", "large");
  turns.push(runTurn(sm, model, "Read src/index.ts"));
  report(print, "Turn 4 (new branch, toy/large)", turns[3] as TurnReport);
  const original = { manager: sm, header: sm.getHeader(), entries: sm.getEntries() };

  // Fork the first turn into a new session, as /fork does: a copy of the session extracts
  // the path to the first answer (same entry ids) and continues on its own.
  const copied = newSession(start + HOUR, [original.header as SessionHeader, ...original.entries]);
  copied.createBranchedSession(firstAnswer);
  turns.push(runTurn(copied, model, "Read README.md"));
  report(print, "Turn 5 (forked session)", turns[4] as TurnReport);
  const forkRecords = { manager: copied, header: copied.getHeader(), entries: copied.getEntries() };

  const combined = computeSessionsUsageTotals([
    { path: "original", header: original.header, entries: original.entries },
    { path: "fork", header: forkRecords.header, entries: forkRecords.entries },
  ]);
  print(`\nBoth sessions, copies counted once: ${usageLine(combined.total)}`);
  for (const s of combined.sessions) {
    print(`  ${s.path}: ${s.unique.records} own calls, ${s.copiedRecords} copied from the parent`);
  }
  return {
    turns,
    compacted,
    original,
    fork: forkRecords,
    copiedIds: sm.getBranch(firstAnswer).map((e) => e.id),
    combined,
  };
}
