/**
 * `checkReader`: property-test a tool that reads a sessions root. Each generated folder is
 * written to a fresh temporary directory, the reader runs over it (a function, or a command
 * line whose stdout a given function parses), and the property judges its output against the
 * folder's facts (usually through the oracles). A failure is shrunk by fast-check to a minimal
 * folder, which is printed file by file with the seed and path that replay it.
 *
 * Runs in any runner or none: it returns a report and never throws for a failing reader.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { type SessionFolderOptions, sessionFolderArb } from "./folder-arb.js";
import type { SessionFolder } from "./folder-types.js";
import { formatFolder, writeFolder } from "./write-folder.js";

/** A reader given as a function over the sessions root's path. */
export type FolderReaderFn<T> = (root: string) => T | Promise<T>;

/** A reader given as a command line; the root is passed where an argument is `{root}`, else last. */
export interface FolderReaderCommand<T> {
  readonly command: string;
  readonly args?: readonly string[];
  /** Turns the command's stdout into the value the property judges. */
  readonly parse: (stdout: string) => T;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

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
  /** Runs (default: `FC_RUNS` from the environment, else 100). */
  readonly numRuns?: number;
  /** Seed to replay (default: `FC_SEED` from the environment, else random). */
  readonly seed?: number;
  /** Shrink path to replay, with its seed (default: `FC_PATH`). */
  readonly path?: string;
  /** Where the temporary roots are made (default the OS temp directory). */
  readonly tmpDir?: string;
  /** Where a failure's text goes (default `console.error`); `false` prints nothing. */
  readonly log?: ((text: string) => void) | false;
  /** Longest line printed in full (default 400). */
  readonly maxLineLength?: number;
}

/** What {@link checkReader} found. */
export interface CheckReaderReport {
  readonly failed: boolean;
  /** Folders tried (including shrinking steps, as fast-check counts them). */
  readonly numRuns: number;
  readonly seed: number;
  /** The shrink path of the failure (replay with `seed` and `path`). */
  readonly path: string | undefined;
  /** The minimal failing folder. */
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

function runCommand<T>(reader: FolderReaderCommand<T>, root: string): Promise<T> {
  const given = reader.args ?? [];
  const args = given.includes("{root}")
    ? given.map((a) => (a === "{root}" ? root : a))
    : [...given, root];
  return new Promise((resolve, reject) => {
    execFile(
      reader.command,
      args,
      {
        cwd: reader.cwd,
        env: reader.env ?? process.env,
        maxBuffer: 256 * 1024 * 1024,
        encoding: "utf8",
      },
      (error, stdout, stderr) => {
        if (error) {
          reject(
            new Error(`${reader.command} ${args.join(" ")} failed: ${error.message}\n${stderr}`),
          );
          return;
        }
        try {
          resolve(reader.parse(stdout));
        } catch (e) {
          reject(e);
        }
      },
    );
  });
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
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
  const read = typeof reader === "function" ? reader : (root: string) => runCommand(reader, root);
  const prop = fc.asyncProperty(arbitrary, async (folder) => {
    const root = mkdtempSync(join(options.tmpDir ?? tmpdir(), "pi-sessions-root-"));
    try {
      writeFolder(folder, root);
      const output = await read(root);
      return (await property(output, folder, root)) !== false;
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
  const seed = options.seed ?? envNumber("FC_SEED");
  const path = options.path ?? (process.env.FC_PATH || undefined);
  const details = await fc.check(prop, {
    numRuns: options.numRuns ?? envNumber("FC_RUNS") ?? 100,
    ...(seed !== undefined ? { seed } : {}),
    ...(path !== undefined ? { path } : {}),
  });
  if (!details.failed) {
    return {
      failed: false,
      numRuns: details.numRuns,
      seed: details.seed,
      path: undefined,
      folder: undefined,
      error: undefined,
      text: `checkReader: ${details.numRuns} folders passed (seed ${details.seed})`,
    };
  }
  const folder = details.counterexample?.[0];
  const error =
    details.errorInstance === null
      ? "the property returned false"
      : messageOf(details.errorInstance);
  const replay = `replay: checkReader(reader, property, { seed: ${details.seed}, path: ${JSON.stringify(
    details.counterexamplePath,
  )} }) or FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ""}`;
  const text = [
    `checkReader: failed after ${details.numRuns} folder(s), shrunk ${details.numShrinks} time(s)`,
    error,
    folder ? formatFolder(folder, { maxLineLength: options.maxLineLength }) : "(no folder)",
    replay,
  ].join("\n");
  if (options.log !== false) (options.log ?? console.error)(text);
  return {
    failed: true,
    numRuns: details.numRuns,
    seed: details.seed,
    path: details.counterexamplePath ?? undefined,
    folder,
    error,
    text,
  };
}
