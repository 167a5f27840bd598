/** Codec for the header record (SPEC §2.2). */

import * as t from "io-ts";
import { objectCodec } from "./combinators.js";

/**
 * Checks a {@link SessionHeader}: `timestamp` and `cwd` are declared required (writers write
 * them) but may be missing from very old files (SPEC §2.2); v1's `provider`, `modelId` are kept.
 */
export const SessionHeaderCodec = objectCodec(
  "SessionHeader",
  { type: t.literal("session"), id: t.string },
  { version: t.number, parentSession: t.string },
  { timestamp: t.string, cwd: t.string },
);
/** The first record of every session file. */
export type SessionHeader = t.TypeOf<typeof SessionHeaderCodec>;
