/**
 * A real terminal for pi's interactive TUI: a tmux session on a server of the test's own (its
 * own socket, so a user's tmux is never touched), 120×40, running one command. Keys go in
 * with `send-keys`, the screen comes out with `capture-pane`; waits poll the screen. The
 * machine needs tmux (`scripts/ensure-tmux.mjs` installs Debian's for `pnpm test`); without
 * it the test fails saying so, it never skips.
 */

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The tmux binary (`TMUX_PATH`, else Debian's). */
export const TMUX = process.env.TMUX_PATH ?? "/usr/bin/tmux";

/** Throws a clear error when tmux is missing. */
export function assertTmux(): void {
  if (!existsSync(TMUX)) {
    throw new Error(
      `${TMUX} not found: the TUI tests need tmux (node scripts/ensure-tmux.mjs installs Debian's; TMUX_PATH names another)`,
    );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One tmux session running a command in a terminal of its own. */
export class TmuxTerminal {
  private readonly socket: string;

  /**
   * Starts `command` (argv) in a new 120×40 terminal, in `cwd` with `env`; the socket lives in
   * `dir` (a temp dir of the test).
   */
  constructor(
    dir: string,
    readonly name: string,
    command: readonly string[],
    options: { cwd: string; env: NodeJS.ProcessEnv },
  ) {
    assertTmux();
    this.socket = join(dir, `tmux-${name}.sock`);
    const env = Object.entries(options.env).flatMap(([k, v]) =>
      v === undefined ? [] : ["-e", `${k}=${v}`],
    );
    // `remain-on-exit` keeps the pane (and what pi printed last) after the command ends.
    this.tmux([
      "new-session",
      "-d",
      "-s",
      name,
      "-x",
      "120",
      "-y",
      "40",
      "-c",
      options.cwd,
      ...env,
      ...command,
    ]);
    this.tmux(["set-option", "-t", name, "remain-on-exit", "on"]);
  }

  private tmux(args: readonly string[]): string {
    return execFileSync(TMUX, ["-S", this.socket, "-f", "/dev/null", ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  /** The screen as text (one line per row, trailing spaces cut). */
  screen(): string {
    return this.tmux(["capture-pane", "-p", "-t", this.name])
      .split("\n")
      .map((l) => l.trimEnd())
      .join("\n");
  }

  /** Types `text` literally (no key names). */
  type(text: string): void {
    this.tmux(["send-keys", "-t", this.name, "-l", text]);
  }

  /** Presses keys by tmux name (`Enter`, `Up`, `Escape`, `C-d`). */
  press(...keys: string[]): void {
    this.tmux(["send-keys", "-t", this.name, ...keys]);
  }

  /** Types `text` and presses Enter. */
  submit(text: string): void {
    this.type(text);
    this.press("Enter");
  }

  /** Waits until the screen satisfies `test` (a substring or predicate); returns the screen. */
  async waitFor(
    test: string | ((screen: string) => boolean),
    what = String(test),
  ): Promise<string> {
    const ok = typeof test === "string" ? (s: string) => s.includes(test) : test;
    const deadline = Date.now() + 90_000;
    for (;;) {
      const screen = this.screen();
      if (ok(screen)) return screen;
      if (Date.now() > deadline)
        throw new Error(`${this.name}: no "${what}" on screen:\n${screen}`);
      await sleep(200);
    }
  }

  /** Whether the command has ended (the pane is dead). */
  ended(): boolean {
    return this.tmux(["display-message", "-p", "-t", this.name, "#{pane_dead}"]).trim() === "1";
  }

  /** Waits for the command to end, then stops the tmux server. */
  async close(): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!this.ended() && Date.now() < deadline) await sleep(200);
    this.kill();
  }

  /** Stops the tmux server (and whatever still runs in it). */
  kill(): void {
    try {
      this.tmux(["kill-server"]);
    } catch {
      // Already gone.
    }
  }
}
