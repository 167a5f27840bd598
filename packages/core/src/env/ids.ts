import { randomIdPrefix, type SessionEnv } from "./env.js";

/**
 * A new entry id (SPEC §5.2): the first 8 hex characters of a random v4 UUID, redrawn while
 * `isTaken`, and a full v4 UUID after 100 collisions. `isTaken` must cover every id ever seen
 * in the file, shadowed duplicates included (W15).
 */
export function generateEntryId(env: SessionEnv, isTaken: (id: string) => boolean): string {
  for (let i = 0; i < 100; i++) {
    const id = randomIdPrefix(env);
    if (!isTaken(id)) return id;
  }
  let id = env.randomUUID();
  while (isTaken(id)) id = env.randomUUID();
  return id;
}

/** The pattern custom session ids must match (SPEC §1.4). */
const SESSION_ID_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/**
 * Longest custom id we accept. A file name is `<24-char timestamp>_<id>.jsonl` and the store
 * derives sibling names with suffixes of at most 24 bytes (`.lock`, `.tmp-<hex>`, `.bak`), so
 * 255 - 24 - 1 - 6 - 24 leaves 200 bytes for the id; ids are ASCII, so bytes = characters.
 */
export const MAX_SESSION_ID_LENGTH = 200;

/** The reference's message for a malformed custom session id. */
export const INVALID_SESSION_ID_MESSAGE =
  "Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', and start and end with an alphanumeric character";

/** Throws unless `id` is a valid custom session id: SPEC §1.4 plus our length cap (W18). */
export function assertValidSessionId(id: string): void {
  if (typeof id !== "string" || !SESSION_ID_PATTERN.test(id)) {
    throw new Error(INVALID_SESSION_ID_MESSAGE);
  }
  if (id.length > MAX_SESSION_ID_LENGTH) {
    const sizes = `${id.length} > ${MAX_SESSION_ID_LENGTH} characters`;
    throw new Error(`Session id is too long for a file name (${sizes})`);
  }
}
