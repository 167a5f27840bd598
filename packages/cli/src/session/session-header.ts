/** The few lines that introduce one session in `tree`, `context` and `check` output. */

import { nameOf } from "@pi-sessions/core";
import { formatBytes } from "../io/output.js";
import type { CommandContext } from "../io/runtime.js";
import { countLeaves, type LoadedSession } from "./load-session.js";

/** Prints `Session <id> "<name>"`, then the file, cwd, version and counts, dimmed. */
export function printSessionHeader(ctx: CommandContext, session: LoadedSession): void {
  const c = ctx.colors;
  const name = nameOf(session.state);
  const cwd = typeof session.header.cwd === "string" ? session.header.cwd : "(no cwd)";
  ctx.out(
    `${c.bold(`Session ${String(session.header.id)}`)}${name ? ` ${c.cyan(`"${name}"`)}` : ""}`,
  );
  ctx.out(c.dim(`  file    ${session.path}`));
  ctx.out(c.dim(`  cwd     ${cwd}`));
  const legacy = session.legacy ? " (legacy: ids below are assigned in memory; run migrate)" : "";
  ctx.out(
    c.dim(
      `  format  v${session.version}${legacy}, ${session.entries.length} entries, ${countLeaves(session.entries)} branch tip(s), ${formatBytes(session.size)}`,
    ),
  );
}
