/**
 * The append path's timestamp and id helpers: for the system env they skip work (a timestamp
 * formatted once per millisecond, an id's 4 random bytes drawn from a block) and must give what
 * the slow way gives; any other env (a test's deterministic one) is asked every time, unchanged.
 */

import { describe, expect, it } from "vitest";
import { createDeterministicEnv, nowIso, randomIdPrefix, systemEnv } from "../../src/env/env.js";

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
