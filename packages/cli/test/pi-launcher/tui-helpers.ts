/** Starting a side's pi TUI in tmux, and asking it something (the TUI tests share these). */

import { commonPiArgs, type PiSide, sideCommand, sideEnv } from "./pi-sides.js";
import { TmuxTerminal } from "./tmux-terminal.js";

/** Starts a side's pi TUI with `args` in a terminal named `name` (socket in `dir`). */
export function tuiOf(dir: string, side: PiSide, name: string, args: string[] = []): TmuxTerminal {
  const command = [process.execPath, ...sideCommand(side, [...commonPiArgs(), ...args])];
  return new TmuxTerminal(dir, name, command, { cwd: side.cwd, env: sideEnv(side) });
}

/** Sends a prompt and waits for the scripted model's answer to show. */
export async function ask(tui: TmuxTerminal, prompt: string, answer: string): Promise<void> {
  tui.submit(prompt);
  await tui.waitFor(answer);
}
