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
