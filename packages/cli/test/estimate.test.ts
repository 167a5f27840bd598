import { describe, expect, it } from "vitest";
import { CHARS_PER_TOKEN, estimateTokens } from "../src/session/estimate.js";

describe("estimateTokens", () => {
  it("counts a pi 1.6 system message by its prompt sections and tools, not its empty content", () => {
    const preamble = "You are a coding assistant running inside pi.".repeat(20);
    const tools = [{ name: "read", description: "Read a file", parameters: { type: "object" } }];
    const message = {
      role: "system",
      content: "",
      sections: { preamble, removed: null, cwd: "/project" },
      toolsAdded: tools,
    };
    const chars = preamble.length + "/project".length + JSON.stringify(tools).length;
    expect(estimateTokens(message)).toBe(Math.ceil(chars / CHARS_PER_TOKEN));
  });

  it("leaves sections of other roles alone (only pi's system messages carry a prompt there)", () => {
    expect(estimateTokens({ role: "user", content: "abcd", sections: { x: "efgh" } })).toBe(1);
  });
});
