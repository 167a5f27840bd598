/**
 * Codec for token and cost accounting (SPEC §3.5). Only the shape is checked: the session layer
 * never judges the values (a negative cost is still a number).
 */

import * as t from "io-ts";
import { objectCodec } from "./combinators.js";

/** `usage.cost`: required numbers, plus R1.6's optional `totalFromProvider` flag. */
export const UsageCostCodec = objectCodec(
  "UsageCost",
  {
    input: t.number,
    output: t.number,
    cacheRead: t.number,
    cacheWrite: t.number,
    total: t.number,
  },
  { totalFromProvider: t.boolean },
);

/**
 * `Usage`: token counts and cost. `totalTokens` is declared required (and writers write it) but
 * may be absent on read: files written by older pi lack it (about half the assistant messages
 * in the v1 corpus do), and those files are valid.
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

/** `usage.cost`: the cost of one model call, by token kind (SPEC §3.5). */
export type UsageCost = t.TypeOf<typeof UsageCostCodec>;

/**
 * Token and cost accounting of one model call (SPEC §3.5). `cacheWrite1h` is the part of
 * `cacheWrite` written with 1-hour retention; `reasoning` tokens are already counted in `output`.
 */
export type Usage = t.TypeOf<typeof UsageCodec>;
