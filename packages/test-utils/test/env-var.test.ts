import { afterAll, describe, expect, it } from "vitest";
import { runWithEnv, withEnv } from "../src/env-var.js";

const NAME = "PI_SESSIONS_TEST_UTILS_ENV_VAR";
const SET_BEFORE = "PI_SESSIONS_TEST_UTILS_ENV_VAR_SET";

describe("withEnv", () => {
  describe("inside the block", () => {
    withEnv(NAME, "inside");
    it("the variable has the value", () => {
      expect(process.env[NAME]).toBe("inside");
    });
  });

  it("after the block an unset variable is unset again, not the string 'undefined'", () => {
    expect(NAME in process.env).toBe(false);
  });

  describe("over a variable that was set", () => {
    process.env[SET_BEFORE] = "outer";
    withEnv(SET_BEFORE, "inner");
    it("the block sees its own value", () => {
      expect(process.env[SET_BEFORE]).toBe("inner");
    });
  });

  it("after that block the earlier value is back", () => {
    expect(process.env[SET_BEFORE]).toBe("outer");
  });

  afterAll(() => {
    delete process.env[SET_BEFORE];
  });
});

describe("runWithEnv", () => {
  it("sets the variable for the call and returns its value", () => {
    expect(runWithEnv(NAME, "call", () => process.env[NAME])).toBe("call");
    expect(NAME in process.env).toBe(false);
  });

  it("puts the variable back when the call throws", () => {
    process.env[SET_BEFORE] = "kept";
    try {
      expect(() =>
        runWithEnv(SET_BEFORE, "thrown", () => {
          throw new Error("boom");
        }),
      ).toThrow("boom");
      expect(process.env[SET_BEFORE]).toBe("kept");
    } finally {
      delete process.env[SET_BEFORE];
    }
  });
});
