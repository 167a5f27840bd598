/**
 * Fingerprints of versioned fold rules (SPEC §14 F2): a saved state is reused only under the
 * version that made it, so a rule changed without a new version would leave stale states in
 * every store. A fingerprint test folds fixed inputs, hashes what the fold saves (and answers),
 * and compares the hash with the one committed for the fold's `name@version`: a changed hash
 * under the same version fails ("bump the version"), a new version fails until its hash is
 * committed beside the old ones.
 */
import { createHash } from "node:crypto";

/** A hash of the texts a fold saved, in order (`null`: nothing saved), lengths included. */
export function foldFingerprint(texts: Iterable<string | null>): string {
  const hash = createHash("sha256");
  for (const text of texts) hash.update(text === null ? "-\n" : `${text.length}:${text}\n`);
  return hash.digest("hex").slice(0, 24);
}

/**
 * What is wrong with `fingerprint` as the fingerprint of the rule `key` (`name@version`, or a
 * rules key such as `listing-answer@1 session-info@1`) given the committed `table`, or
 * `undefined` when it is the committed one.
 */
export function fingerprintProblem(
  table: Readonly<Record<string, string>>,
  key: string,
  fingerprint: string,
): string | undefined {
  const committed = table[key];
  if (committed === fingerprint) return undefined;
  if (committed === undefined) {
    return `no fingerprint is committed for ${key}: if its rule changed on purpose, add "${key}": "${fingerprint}" to the table`;
  }
  return `the rule ${key} now folds the fixed inputs differently (${fingerprint}, committed ${committed}): bump its version so stored states are refolded, then commit the new fingerprint`;
}
