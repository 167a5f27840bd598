import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { resolveCwd } from "../env/paths.js";

/** Mode of every directory the store creates (SPEC §1.5, W22): owner only. */
export const DIR_MODE = 0o700;

/** Mode of every file the store creates (SPEC §1.5, W22): owner read/write only. */
export const FILE_MODE = 0o600;

/** Environment variable that overrides the agent directory (SPEC §1.1). */
export const AGENT_DIR_ENV = "PI_CODING_AGENT_DIR";

/** `path` with a lone `~` or a `~/` prefix expanded to the home directory, else as given. */
export function expandHome(path: string): string {
  if (path === "~") return homedir();
  return path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}

/**
 * The agent directory (SPEC §1.1): `$PI_CODING_AGENT_DIR` when non-empty, home expanded but, like
 * the reference, not resolved against the cwd; else `<home>/.pi/agent`.
 */
export function getAgentDir(env: NodeJS.ProcessEnv = process.env): string {
  const value = env[AGENT_DIR_ENV];
  return value === undefined || value === "" ? join(homedir(), ".pi", "agent") : expandHome(value);
}

/** The sessions root, `<agentDir>/sessions` (SPEC §1.1). */
export function getSessionsRoot(agentDir: string = getAgentDir()): string {
  return join(agentDir, "sessions");
}

/** SPEC §1.2 steps 2–4 for a normalised absolute path (a Windows one on any platform too). */
export function encodeResolvedCwd(absolutePath: string): string {
  const body = absolutePath.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-");
  return `--${body}--`;
}

/**
 * A working directory's folder name (SPEC §1.2): `resolveCwd`, then {@link encodeResolvedCwd}.
 * It loses information (`/a/b` and `/a-b` collide, W17), kept for the existing directories.
 */
export function encodeCwd(cwd: string): string {
  return encodeResolvedCwd(resolveCwd(cwd));
}

/** `<agentDir>/sessions/--<encoded cwd>--`, creating nothing (SPEC §1.2, invariant 6). */
export function defaultSessionDirPath(cwd: string, agentDir: string = getAgentDir()): string {
  return join(getSessionsRoot(agentDir), encodeCwd(cwd));
}

/**
 * The default session directory of `cwd` (SPEC §1.2), created with mode 0700 if missing. The
 * reference creates it with the process umask (0755 usually); we keep transcripts private (W22).
 */
export function getDefaultSessionDir(cwd: string, agentDir: string = getAgentDir()): string {
  const dir = defaultSessionDirPath(cwd, agentDir);
  ensureDir(dir);
  return dir;
}

/** `mkdir -p` with mode 0700; existing directories keep their mode (the user's business). */
export function ensureDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: DIR_MODE });
}

/** The file name of a session (SPEC §1.3), e.g. `2024-12-03T14-00-00-000Z_<id>.jsonl`. */
export function sessionFileName(timestampIso: string, sessionId: string): string {
  return `${timestampIso.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}
