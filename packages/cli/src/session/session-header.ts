/** The few lines that introduce one session in `tree` and `context` output. */

import { nameOf, type SessionHeader } from "@pi-sessions/core";
import { formatBytes } from "../io/output.js";
import type { CommandContext } from "../io/runtime.js";
import { countLeaves, type LoadedSession } from "./load-session.js";

/** What the header lines say about a session (from a loaded file, or from the index). */
export interface SessionFacts {
  readonly path: string;
  readonly header: SessionHeader;
  readonly name: string | undefined;
  readonly version: number;
  readonly legacy: boolean;
  readonly entries: number;
  readonly branchTips: number;
  readonly size: number;
}

/** The facts of a loaded session. */
export function factsOf(session: LoadedSession): SessionFacts {
  return {
    path: session.path,
    header: session.header,
    name: nameOf(session.state),
    version: session.version,
    legacy: session.legacy,
    entries: session.entries.length,
    branchTips: countLeaves(session.entries),
    size: session.size,
  };
}

/** Prints `Session <id> "<name>"`, then the file, cwd, version and counts, dimmed. */
export function printSessionHeader(ctx: CommandContext, session: SessionFacts): void {
  const c = ctx.colors;
  const name = session.name;
  const cwd = typeof session.header.cwd === "string" ? session.header.cwd : "(no cwd)";
  ctx.out(
    `${c.bold(`Session ${String(session.header.id)}`)}${name ? ` ${c.cyan(`"${name}"`)}` : ""}`,
  );
  ctx.out(c.dim(`  file    ${session.path}`));
  ctx.out(c.dim(`  cwd     ${cwd}`));
  const legacy = session.legacy ? " (legacy: ids below are assigned in memory; run migrate)" : "";
  ctx.out(
    c.dim(
      `  format  v${session.version}${legacy}, ${session.entries} entries, ${session.branchTips} branch tip(s), ${formatBytes(session.size)}`,
    ),
  );
}
