/**
 * Token and cost accounting (SPEC §3.5). Values are consistent the way pi writes them
 * (`totalTokens` is the sum of the four counts, `cost.total` the sum of the four costs,
 * `cacheWrite1h ≤ cacheWrite`, `reasoning ≤ output`), so usage-summing tools can be tested
 * against totals; the codec itself does not require that.
 */
import type { Usage } from "@pi-sessions/core";
import fc from "fast-check";
import { amountArb } from "./common.js";

/** Options of {@link usageArb}. */
export interface UsageOptions {
  /**
   * Sometimes leave out `totalTokens`, as files written by older pi do (default false). The
   * codec accepts it; the static `Usage` type says it is required.
   */
  legacy?: boolean;
}

const tokens = fc.nat({ max: 200_000 });

/** A `Usage` value with `cost`, and sometimes `cacheWrite1h`, `reasoning`, `totalFromProvider`. */
export function usageArb(options: UsageOptions = {}): fc.Arbitrary<Usage> {
  return fc
    .record({
      input: tokens,
      output: tokens,
      cacheRead: tokens,
      cacheWrite: tokens,
      costs: fc.tuple(amountArb, amountArb, amountArb, amountArb),
      oneHourShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      reasoningShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      totalFromProvider: fc.option(fc.boolean(), { nil: undefined }),
      dropTotal: options.legacy ? fc.boolean() : fc.constant(false),
    })
    .map((r) => {
      const [ci, co, cr, cw] = r.costs;
      const cost: Usage["cost"] = {
        input: ci,
        output: co,
        cacheRead: cr,
        cacheWrite: cw,
        total: ci + co + cr + cw,
      };
      if (r.totalFromProvider !== undefined) cost.totalFromProvider = r.totalFromProvider;
      const usage = {
        input: r.input,
        output: r.output,
        cacheRead: r.cacheRead,
        cacheWrite: r.cacheWrite,
      } as Usage;
      if (r.oneHourShare !== undefined) {
        usage.cacheWrite1h = Math.floor(r.cacheWrite * r.oneHourShare);
      }
      if (r.reasoningShare !== undefined) {
        usage.reasoning = Math.floor(r.output * r.reasoningShare);
      }
      if (!r.dropTotal) usage.totalTokens = r.input + r.output + r.cacheRead + r.cacheWrite;
      usage.cost = cost;
      return usage;
    });
}
