/**
 * The run settings read the environment as every property test expects, and a failure that
 * fast-check reports replays from the seed and path it prints.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { fcOptions, fcRuns } from "../src/fc-options.js";

const saved = { runs: process.env.FC_RUNS, seed: process.env.FC_SEED, path: process.env.FC_PATH };
const setEnv = (name: string, value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};
afterEach(() => {
  setEnv("FC_RUNS", saved.runs);
  setEnv("FC_SEED", saved.seed);
  setEnv("FC_PATH", saved.path);
});

describe("fcOptions", () => {
  it("takes the default without FC_RUNS/FC_SEED/FC_PATH", () => {
    setEnv("FC_RUNS", undefined);
    setEnv("FC_SEED", undefined);
    setEnv("FC_PATH", undefined);
    expect(fcOptions(300)).toStrictEqual({ numRuns: 300 });
  });

  it("takes a positive integer FC_RUNS and ignores anything else", () => {
    for (const [value, expected] of [
      ["25", 25],
      ["0", 7],
      ["-3", 7],
      ["2.5", 7],
      ["many", 7],
      ["", 7],
    ] as const) {
      setEnv("FC_RUNS", value);
      expect(fcRuns(7), `FC_RUNS=${value}`).toBe(expected);
    }
  });

  it("passes FC_SEED (also 0 and negative) and FC_PATH through", () => {
    setEnv("FC_RUNS", undefined);
    for (const seed of ["0", "-17", "123456"]) {
      setEnv("FC_SEED", seed);
      setEnv("FC_PATH", "3:1:0");
      expect(fcOptions(5)).toStrictEqual({ numRuns: 5, seed: Number(seed), path: "3:1:0" });
    }
  });

  it("refuses an FC_SEED that is not an integer", () => {
    setEnv("FC_SEED", "12ab");
    expect(() => fcOptions(5)).toThrow(/FC_SEED must be an integer/);
  });

  it("replays the failure fast-check reports from its seed and path", () => {
    setEnv("FC_RUNS", undefined);
    setEnv("FC_SEED", undefined);
    setEnv("FC_PATH", undefined);
    // A property that fails on roughly half the cases, so a first run finds a failure.
    const property = fc.property(fc.integer(), fc.string(), (n, s) => n % 7 !== 3 || s.length < 2);
    const first = fc.check(property, fcOptions(10_000));
    expect(first.failed).toBe(true);
    setEnv("FC_SEED", String(first.seed));
    setEnv("FC_PATH", first.counterexamplePath ?? "");
    const replay = fc.check(property, fcOptions(10_000));
    expect(replay.failed).toBe(true);
    expect(replay.counterexample).toStrictEqual(first.counterexample);
    // The report a failing fc.assert throws names the seed and path to set.
    expect(() => fc.assert(property, fcOptions(10_000))).toThrow(
      new RegExp(`seed: ${first.seed}, path: "${first.counterexamplePath}"`),
    );
  });
});
