/**
 * A reader given as a command line, run once per generated folder: this run's paths go where
 * its arguments and environment name them, it runs with a home of its own, it is killed when
 * it takes too long, and the exit codes it may end with are the caller's to say.
 */
import { execFile } from "node:child_process";

/**
 * Where one run's files are. Every run gets a fresh home laid out as pi's: the sessions root
 * is `<home>/.pi/agent/sessions`, so a tool that finds pi's sessions from `HOME` finds it.
 */
export interface ReaderPaths {
  /** The sessions root the folder was written to: `<home>/.pi/agent/sessions`. */
  readonly root: string;
  /** This run's home folder (a command's `HOME`). */
  readonly home: string;
  /** `<home>/.pi/agent`, pi's agent folder (`PI_CODING_AGENT_DIR`). */
  readonly agentDir: string;
}

/** How a command run ended, for `parse`. */
export interface CommandRun {
  /** The exit code (one of `exitCodes`). */
  readonly code: number;
  /** What the command wrote to stderr. */
  readonly stderr: string;
}

/** A reader given as a command line (see {@link runReaderCommand}). */
export interface FolderReaderCommand<T> {
  readonly command: string;
  /**
   * Arguments. `{root}`, `{home}` and `{agentDir}` are replaced by this run's paths. When no
   * argument and no `env` value names one, the root is appended as the last argument (unless
   * `appendRoot` is false).
   */
  readonly args?: readonly string[];
  /**
   * Environment added to the inherited one, values with the same placeholders, e.g.
   * `{ MY_TOOL_SESSIONS: "{root}" }`. Every run also gets `HOME` (and `USERPROFILE`) set to
   * its home, and `PI_CODING_AGENT_DIR` unset unless given here, so a tool that looks for
   * pi's sessions where pi keeps them (`~/.pi/agent/sessions`) finds this run's root.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Append the root as the last argument (default: only when no placeholder is used). */
  readonly appendRoot?: boolean;
  readonly cwd?: string;
  /** Milliseconds before the command is killed and the run fails (default 60,000). */
  readonly timeoutMs?: number;
  /**
   * Exit codes that mean "here is my output" (default `[0]`): stdout is parsed. Any other
   * code fails the run with the command's stderr. A tool that exits 1 when it finds problems
   * lists `[0, 1]` and judges the code in `parse` or the property.
   */
  readonly exitCodes?: readonly number[];
  /** Turns the command's stdout (and how it ended) into the value the property judges. */
  readonly parse: (stdout: string, run: CommandRun) => T;
}

const PLACEHOLDER = /\{(root|home|agentDir)\}/g;

const fill = (text: string, paths: ReaderPaths): string =>
  text.replace(PLACEHOLDER, (_m, key: keyof ReaderPaths) => paths[key]);

/** The arguments and environment of one run (placeholders filled, root appended if due). */
export function commandLine(
  reader: FolderReaderCommand<unknown>,
  paths: ReaderPaths,
): { args: string[]; env: NodeJS.ProcessEnv } {
  const given = reader.args ?? [];
  const extra = reader.env ?? {};
  const named = [...given, ...Object.values(extra)].some((a) => new RegExp(PLACEHOLDER).test(a));
  const args = given.map((a) => fill(a, paths));
  if (reader.appendRoot ?? !named) args.push(paths.root);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: paths.home, USERPROFILE: paths.home };
  delete env.PI_CODING_AGENT_DIR;
  for (const [key, value] of Object.entries(extra)) env[key] = fill(value, paths);
  return { args, env };
}

/** Runs the command over one folder and parses its output; rejects with what went wrong. */
export function runReaderCommand<T>(
  reader: FolderReaderCommand<T>,
  paths: ReaderPaths,
): Promise<T> {
  const { args, env } = commandLine(reader, paths);
  const timeout = reader.timeoutMs ?? 60_000;
  const ok = reader.exitCodes ?? [0];
  const shown = `${reader.command} ${args.join(" ")}`;
  return new Promise((resolve, reject) => {
    execFile(
      reader.command,
      args,
      { cwd: reader.cwd, env, timeout, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        const failure = error as (NodeJS.ErrnoException & { killed?: boolean }) | null;
        if (failure?.killed) {
          reject(new Error(`${shown} timed out after ${timeout} ms (timeoutMs)\n${stderr}`));
          return;
        }
        const code = failure ? (typeof failure.code === "number" ? failure.code : -1) : 0;
        if (!ok.includes(code)) {
          const why = failure?.message ?? `exited ${code}`;
          reject(
            new Error(
              `${shown} failed (exit ${code}; exitCodes ${ok.join(", ")}): ${why}\n${stderr}`,
            ),
          );
          return;
        }
        try {
          resolve(reader.parse(stdout, { code, stderr }));
        } catch (e) {
          reject(e);
        }
      },
    );
  });
}
