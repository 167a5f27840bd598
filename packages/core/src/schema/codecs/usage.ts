/** Codec for token and cost accounting (SPEC §3.5): the shape only (a negative cost passes). */

import * as t from "io-ts";
import { objectCodec } from "./combinators.js";

/** The token kinds usage counts, and costs are split by. */
const byKind = { input: t.number, output: t.number, cacheRead: t.number, cacheWrite: t.number };

/** Checks a {@link UsageCost}. */
export const UsageCostCodec = objectCodec(
  "UsageCost",
  { ...byKind, total: t.number },
  { totalFromProvider: t.boolean },
);
/** `usage.cost`: the cost of one model call, by token kind; R1.6 adds `totalFromProvider`. */
export type UsageCost = t.TypeOf<typeof UsageCostCodec>;

/**
 * Checks a {@link Usage}. `totalTokens` is declared required (writers write it) but may be
 * absent on read: older pi did not write it (about half the assistant messages of the v1
 * corpus lack it), and those files are valid.
 */
export const UsageCodec = objectCodec(
  "Usage",
  { ...byKind, cost: UsageCostCodec },
  { cacheWrite1h: t.number, reasoning: t.number },
  { totalTokens: t.number },
);
/**
 * Token and cost accounting of one model call. `cacheWrite1h` is the part of `cacheWrite`
 * written with 1-hour retention; `reasoning` tokens are already counted in `output`.
 */
export type Usage = t.TypeOf<typeof UsageCodec>;
