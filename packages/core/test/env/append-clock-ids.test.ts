/**
 * The append path's timestamp and id helpers: for the system env they skip work (a timestamp
 * formatted once per millisecond, an id's 4 random bytes drawn from a block) and must give what
 * the slow way gives; any other env (a test's deterministic one) is asked every time, unchanged.
 */

import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createDeterministicEnv,
  isoOfMs,
  nowIso,
  randomIdPrefix,
  systemEnv,
} from "../../src/env/env.js";

/** The property's run count (`FC_RUNS` honoured), named in its title. */
const RUNS = fcOptions(300);

describe("append clock and ids", () => {
  it("the system env's timestamp is the current millisecond's ISO text", () => {
    for (let i = 0; i < 2000; i++) {
      const before = Date.now();
      const text = nowIso(systemEnv);
      const after = Date.now();
      expect(text).toBe(new Date(Date.parse(text)).toISOString());
      expect(Date.parse(text)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(text)).toBeLessThanOrEqual(after);
    }
  });

  it(`isoOfMs is toISOString for any walk of milliseconds, back and forth across seconds and years (numRuns ${RUNS.numRuns})`, () => {
    // Steps within a millisecond, a second, a day and a century, from anywhere Date can
    // hold (years before 0 and after 9999 are written with six digits and a sign).
    const step = fc.oneof(
      fc.constant(0),
      fc.integer({ min: -1_500, max: 1_500 }),
      fc.integer({ min: -90_000_000, max: 90_000_000 }),
      fc.integer({ min: -4e12, max: 4e12 }),
    );
    const start = fc.integer({ min: -8.6e15, max: 8.6e15 });
    fc.assert(
      fc.property(start, fc.array(step, { maxLength: 40 }), (from, steps) => {
        let ms = from;
        for (const d of [0, ...steps]) {
          ms = Math.max(-8.64e15, Math.min(8.64e15, ms + d));
          expect(isoOfMs(ms)).toBe(new Date(ms).toISOString());
        }
      }),
      RUNS,
    );
  });

  it("another env's clock is read on every call (a stepping clock steps)", () => {
    const env = createDeterministicEnv({ startMs: Date.UTC(2025, 0, 1), stepMs: 1 });
    expect([nowIso(env), nowIso(env)]).toEqual([
      "2025-01-01T00:00:00.000Z",
      "2025-01-01T00:00:00.001Z",
    ]);
  });

  it("the system env's id prefix is 8 lowercase hex characters, fresh on every call", () => {
    // 3000 draws span the 4096-byte block; 32 random bits collide among them with p ≈ 1e-3,
    // so distinctness is checked between neighbours only (p ≈ 7e-7 over the run).
    const ids = Array.from({ length: 3000 }, () => randomIdPrefix(systemEnv));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).not.toBe(ids[i - 1]);
    // Every hex digit turns up in every position: all 32 bits are random.
    for (let at = 0; at < 8; at++) expect(new Set(ids.map((id) => id[at])).size).toBe(16);
  });

  it("another env's id prefix is the start of its randomUUID, draw for draw", () => {
    const a = createDeterministicEnv({ seed: 7 });
    const b = createDeterministicEnv({ seed: 7 });
    for (let i = 0; i < 20; i++) expect(randomIdPrefix(a)).toBe(b.randomUUID().slice(0, 8));
  });
});
