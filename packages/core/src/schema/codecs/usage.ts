/**
 * Codec for token and cost accounting (SPEC §3.5). Only the shape is checked: the session layer
 * never judges the values (a negative cost is still a number).
 */

import * as t from "io-ts";
import { objectCodec } from "./combinators.js";

/** Checks a {@link UsageCost}. */
export const UsageCostCodec = objectCodec(
  "UsageCost",
  { input: t.number, output: t.number, cacheRead: t.number, cacheWrite: t.number, total: t.number },
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
  {
    input: t.number,
    output: t.number,
    cacheRead: t.number,
    cacheWrite: t.number,
    cost: UsageCostCodec,
  },
  { cacheWrite1h: t.number, reasoning: t.number },
  { totalTokens: t.number },
);
/**
 * Token and cost accounting of one model call. `cacheWrite1h` is the part of `cacheWrite`
 * written with 1-hour retention; `reasoning` tokens are already counted in `output`.
 */
export type Usage = t.TypeOf<typeof UsageCodec>;
