/**
 * The process surface the CLI talks to, passed in rather than read from globals so a command
 * never reaches for `process` directly and the whole program can run against captured streams.
 */

/**
 * A text sink: stdout or stderr. `isTTY` decides colours and the progress bar. Only data
 * (`writeData`) may come as bytes, as the process streams take them.
 */
export interface OutputStream {
  write(text: string | Uint8Array): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Everything a command may read from or write to outside its arguments. */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: NodeJS.ProcessEnv;
  /** The working directory relative paths and `--cwd` resolve against. */
  readonly cwd: string;
}

/** The real process streams, environment and working directory. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  };
}
