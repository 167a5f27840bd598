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
 * Checks a {@link Usage}. `totalTokens` may be absent on read: older pi did not write it (about
 * half the assistant messages of the v1 corpus lack it), and those files are valid.
 */
export const UsageCodec = objectCodec(
  "Usage",
  { ...byKind, cost: UsageCostCodec },
  { cacheWrite1h: t.number, reasoning: t.number },
  { totalTokens: t.number },
);
/** One model call's tokens and cost; `cacheWrite1h` is in `cacheWrite`, `reasoning` in `output`. */
export type Usage = t.TypeOf<typeof UsageCodec>;
