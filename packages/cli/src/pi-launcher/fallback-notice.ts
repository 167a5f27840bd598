/**
 * Why a listing inside pi read the files instead of the session index: said only when
 * `PI_SESSIONS_DEBUG` is set, in one line on stderr. Never by default: the answer is right
 * either way (only slower), and a line on pi's terminal would land in the middle of its TUI;
 * whoever asks redirects it (`PI_SESSIONS_DEBUG=1 pi-sessions pi 2>>/tmp/pi-sessions.log`).
 */

/** The environment variable that turns the notice on (any value but empty or `0`). */
export const DEBUG_ENV = "PI_SESSIONS_DEBUG";

/** Says, when asked to, that `what` failed with `error` and the files were listed instead. */
export function sayIndexFallback(what: string, error: unknown): void {
  const flag = process.env[DEBUG_ENV];
  if (flag === undefined || flag === "" || flag === "0") return;
  const reason = (error instanceof Error ? error.message : String(error))
    .replace(/\s*\n\s*/g, " ")
    .trim();
  process.stderr.write(`pi-sessions: ${what} (${reason}); listing the session files instead\n`);
}
