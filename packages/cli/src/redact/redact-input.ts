/**
 * The redaction options of the CLI (`redact`'s flags, `export --redact`'s) turned into the
 * library's, and a session read and redacted for a command. Both commands use
 * `@pi-sessions/redact` as it is; nothing here finds or replaces a secret.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  parsePatternArg,
  type RedactionResult,
  type RedactOptions,
  readRedactionConfig,
  redactSession,
} from "@pi-sessions/redact";
import { oneLine, usageError } from "../io/errors.js";
import { type LoadedSession, loadSession } from "../session/load-session.js";
import { bytesOfKeptText, textKeepingBytes } from "./raw-bytes-text.js";

/** The flags that choose what is redacted. */
export interface RedactFlags {
  paths?: boolean;
  entropy?: boolean;
  pattern?: string[];
  config?: string;
  allow?: string[];
}

/** Collects a repeatable option's values. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Library options from the flags (a config file first, flags added to it); exit 2 on errors. */
export function redactOptionsOf(flags: RedactFlags): RedactOptions {
  let base: RedactOptions = {};
  try {
    if (flags.config !== undefined) base = readRedactionConfig(flags.config);
    const patterns = (flags.pattern ?? []).map((p) => parsePatternArg(p));
    return {
      paths: flags.paths === true || base.paths === true,
      entropy:
        flags.entropy === true
          ? base.entropy === undefined || base.entropy === false
            ? true
            : base.entropy
          : base.entropy,
      patterns: [...(base.patterns ?? []), ...patterns],
      allow: [...(base.allow ?? []), ...(flags.allow ?? [])],
    };
  } catch (error) {
    throw usageError(oneLine(error));
  }
}

/**
 * Reads the session file's text, each byte that is not UTF-8 kept as an escape character
 * (`raw-bytes-text.ts`), so writing the redaction back gives every other byte unchanged;
 * exit 2 when it cannot be read.
 */
export function readSessionText(path: string): string {
  try {
    return textKeepingBytes(readFileSync(path));
  } catch (error) {
    throw usageError(`cannot read ${path}: ${oneLine(error)}`);
  }
}

/** A session loaded from its redacted text, and the redaction. */
export interface RedactedSession {
  readonly loaded: LoadedSession;
  readonly redaction: RedactionResult;
}

/**
 * The session at `path` redacted and loaded as the read-only commands load a session: the
 * redacted text goes through a private temporary file (mode 0600, removed at once), so it is
 * read by exactly the loader the unredacted export uses. `path` stays the real file's.
 */
export async function loadRedacted(path: string, options: RedactOptions): Promise<RedactedSession> {
  loadSession(path); // the original's own errors first (not a session, empty, unreadable)
  const redaction = await redactSession(readSessionText(path), options);
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-redact-"));
  try {
    const file = join(dir, "redacted.jsonl");
    writeFileSync(file, bytesOfKeptText(redaction.text), { mode: 0o600 });
    return { loaded: { ...loadSession(file), path }, redaction };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
