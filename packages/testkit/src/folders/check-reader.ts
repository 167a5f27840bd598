/**
 * `checkReader`: property-test a tool that reads a sessions root. Each generated folder is
 * written to a fresh temporary directory, the reader runs over it (a function, or a command
 * line whose stdout a given function parses), and the property judges its output against the
 * folder's facts (usually through the oracles). A failure is shrunk by fast-check to a minimal
 * folder, which is printed file by file with the seed and path that replay it. Each run gets
 * a home of its own, the folder written to `<home>/.pi/agent/sessions` as pi keeps it.
 *
 * Runs in any runner or none: it returns a report and never throws for a failing reader.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { type SessionFolderOptions, sessionFolderArb } from "./folder-arb.js";
import type { SessionFolder } from "./folder-types.js";
import { type FolderReaderCommand, type ReaderPaths, runReaderCommand } from "./reader-command.js";
import { formatFolder, writeFolder } from "./write-folder.js";

export type { CommandRun, FolderReaderCommand, ReaderPaths } from "./reader-command.js";

/**
 * A reader given as a function of the sessions root's path (and this run's other paths). A
 * function cannot be stopped, so `timeoutMs` applies to commands only.
 */
export type FolderReaderFn<T> = (root: string, paths: ReaderPaths) => T | Promise<T>;

/** Either kind of reader. */
export type FolderReader<T> = FolderReaderFn<T> | FolderReaderCommand<T>;

/**
 * Judges a reader's output for a folder: throw (e.g. an `expect`) or return false to fail.
 * `root` is where the folder was written.
 */
export type ReaderProperty<T> = (
  output: T,
  folder: SessionFolder,
  root: string,
) => boolean | undefined | Promise<boolean | undefined>;

/** Options of {@link checkReader}. */
export interface CheckReaderOptions {
  /** Options of the folders (`sessionFolderArb`); ignored when `arbitrary` is given. */
  readonly folder?: SessionFolderOptions;
  /** Folders of your own (e.g. `sessionFolderArb(...).filter(...)`). */
  readonly arbitrary?: fc.Arbitrary<SessionFolder>;
  /** Folders to generate (default: `FC_RUNS` from the environment, else 100). */
  readonly numRuns?: number;
  /** Seed to replay (default: `FC_SEED` from the environment, else random). */
  readonly seed?: number;
  /** Shrink path to replay, with its seed (default: `FC_PATH`). */
  readonly path?: string;
  /** Where each run's temporary home is made (default the OS temp directory). */
  readonly tmpDir?: string;
  /** Where a failure's text goes (default `console.error`); `false` prints nothing. */
  readonly log?: ((text: string) => void) | false;
  /** Longest line printed in full (default 400); longer ones are cut, and the text says so. */
  readonly maxLineLength?: number;
  /**
   * How long shrinking may go on after the first failure, in ms (default 60,000). When it is
   * over, the smallest failing folder found so far is reported, marked `shrinkStopped`.
   */
  readonly shrinkTimeLimitMs?: number;
}

/** What {@link checkReader} found. */
export interface CheckReaderReport {
  readonly failed: boolean;
  /**
   * Folders generated and judged until the first failure (all of them when none failed).
   * Shrinking steps are not included: see `numShrinks`.
   */
  readonly numRuns: number;
  /** How many times the failure was shrunk to a smaller failing folder (0 when it passed). */
  readonly numShrinks: number;
  /** Shrinking was cut short by `shrinkTimeLimitMs`: the folder may not be minimal. */
  readonly shrinkStopped: boolean;
  readonly seed: number;
  /** The shrink path of the failure (replay with `seed` and `path`). */
  readonly path: string | undefined;
  /** The minimal failing folder; `writeFolder(report.folder, dir)` writes it out. */
  readonly folder: SessionFolder | undefined;
  /** The property's (or the reader's) error message. */
  readonly error: string | undefined;
  /** The failure as printed: the error, the folder, the replay line; or a one-line success. */
  readonly text: string;
}

function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  const n = Number(raw);
  return raw !== undefined && raw !== "" && Number.isInteger(n) ? n : undefined;
}

/** A fresh home for one run, with the sessions root where pi keeps it. */
function makePaths(tmpDir: string | undefined): { run: string; paths: ReaderPaths } {
  const run = mkdtempSync(join(tmpDir ?? tmpdir(), "pi-sessions-run-"));
  const home = join(run, "home");
  const agentDir = join(home, ".pi", "agent");
  const root = join(agentDir, "sessions");
  mkdirSync(root, { recursive: true });
  return { run, paths: { root, home, agentDir } };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}

/** A reader's answer on one line as JSON (else as `String` gives it), cut past `max` characters. */
function answerText(answer: unknown, max: number): string {
  let text: string;
  try {
    text = JSON.stringify(answer) ?? String(answer);
  } catch {
    text = String(answer);
  }
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/**
 * Runs `reader` over generated folders and judges each output with `property`; see the module
 * note. Resolves to a report; on a failure the report's text (also passed to `options.log`)
 * holds the error, the shrunk folder and how to replay it.
 */
export async function checkReader<T>(
  reader: FolderReader<T>,
  property: ReaderProperty<T>,
  options: CheckReaderOptions = {},
): Promise<CheckReaderReport> {
  const arbitrary = options.arbitrary ?? sessionFolderArb(options.folder);
  const read =
    typeof reader === "function"
      ? reader
      : (_root: string, paths: ReaderPaths) => runReaderCommand(reader, paths);
  // The reader's answer for each folder the property returned false for: the failure shows it
  // (a `false` says nothing else; a thrown `expect` says expected and received itself).
  const falseFor = new WeakMap<SessionFolder, T>();
  const prop = fc.asyncProperty(arbitrary, async (folder) => {
    const { run, paths } = makePaths(options.tmpDir);
    try {
      writeFolder(folder, paths.root);
      const output = await read(paths.root, paths);
      const held = (await property(output, folder, paths.root)) !== false;
      if (!held) falseFor.set(folder, output);
      return held;
    } finally {
      rmSync(run, { recursive: true, force: true });
    }
  });
  const seed = options.seed ?? envNumber("FC_SEED");
  const path = options.path ?? (process.env.FC_PATH || undefined);
  const numRuns = options.numRuns ?? envNumber("FC_RUNS") ?? 100;
  // Two steps, so that the shrink time limit starts at the first failure: find it without
  // shrinking, then shrink from it (its path) until done or the limit interrupts fast-check.
  const found = await fc.check(prop, {
    numRuns,
    endOnFailure: true,
    ...(seed !== undefined ? { seed } : {}),
    ...(path !== undefined ? { path } : {}),
  });
  const limit = options.shrinkTimeLimitMs ?? 60_000;
  const shrunk = found.failed
    ? await fc.check(prop, {
        numRuns,
        seed: found.seed,
        path: found.counterexamplePath ?? "",
        ...(Number.isFinite(limit) ? { interruptAfterTimeLimit: limit } : {}),
      })
    : undefined;
  const shrinkStopped = shrunk?.interrupted === true;
  // Interrupted before it replayed the failure, fast-check has no counterexample: keep the first.
  const best = shrunk?.failed && shrunk.counterexample ? shrunk : found;
  const details = { ...best, numRuns: found.numRuns, numShrinks: shrunk?.numShrinks ?? 0 };
  if (!details.failed) {
    return {
      failed: false,
      numRuns: details.numRuns,
      numShrinks: 0,
      shrinkStopped: false,
      seed: details.seed,
      path: undefined,
      folder: undefined,
      error: undefined,
      text: `checkReader: ${details.numRuns} folders passed (seed ${details.seed})`,
    };
  }
  const folder = details.counterexample?.[0];
  // fast-check's own error for a `false` ("Property failed by returning false") names no answer.
  const error =
    folder !== undefined && falseFor.has(folder)
      ? `the property returned false for the reader's answer: ${answerText(falseFor.get(folder), options.maxLineLength ?? 400)} (the folder below is what it was judged against)`
      : details.errorInstance === null
        ? "the property returned false"
        : messageOf(details.errorInstance);
  const replay = `replay: checkReader(reader, property, { seed: ${details.seed}, path: ${JSON.stringify(
    details.counterexamplePath,
  )} }) or FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ""}`;
  const stopped = shrinkStopped
    ? `; shrinking stopped after ${limit} ms (shrinkTimeLimitMs), the folder may not be minimal`
    : "";
  const text = [
    `checkReader: failed after ${details.numRuns} folder(s), shrunk ${details.numShrinks} time(s)${stopped}`,
    error,
    folder ? formatFolder(folder, { maxLineLength: options.maxLineLength }) : "(no folder)",
    replay,
    "write the folder out: writeFolder(report.folder, dir)",
  ].join("\n");
  if (options.log !== false) (options.log ?? console.error)(text);
  return {
    failed: true,
    numRuns: details.numRuns,
    numShrinks: details.numShrinks,
    shrinkStopped,
    seed: details.seed,
    path: details.counterexamplePath ?? undefined,
    folder,
    error,
    text,
  };
}
