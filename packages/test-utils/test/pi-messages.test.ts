/**
 * The message and usage builders write pi's shapes: keys in pi's order (generated files must
 * look like real ones), costs priced per million tokens, and optional counts only when given.
 */
import { describe, expect, it } from "vitest";
import * as pi from "../src/pi-messages.js";

const { assistantMessage, SONNET_PRICES, textBlock, usageRecord, userMessage } = pi;

describe("usageRecord", () => {
  it("prices each token kind per million and sums the total", () => {
    const u = usageRecord({ input: 1000, output: 200, cacheRead: 5000, cacheWrite: 400 });
    expect(u.cost.input).toBe((1000 * SONNET_PRICES.input) / 1e6);
    expect(u.cost.output).toBe((200 * SONNET_PRICES.output) / 1e6);
    expect(u.cost.cacheRead).toBe((5000 * SONNET_PRICES.cacheRead) / 1e6);
    expect(u.cost.cacheWrite).toBe((400 * SONNET_PRICES.cacheWrite) / 1e6);
    expect(u.cost.total).toBe(u.cost.input + u.cost.output + u.cost.cacheRead + u.cost.cacheWrite);
    expect(u.totalTokens).toBe(6600);
    expect(Object.keys(u)).toEqual([
      "input",
      "output",
      "cacheRead",
      "cacheWrite",
      "totalTokens",
      "cost",
    ]);
  });

  it("writes cacheWrite1h and reasoning, in pi's order, only when given", () => {
    const prices = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 };
    const u = usageRecord(
      { input: 10, output: 5, cacheRead: 0, cacheWrite: 2, cacheWrite1h: 1, reasoning: 3 },
      prices,
    );
    expect(Object.keys(u)).toEqual([...pi.USAGE_TOKEN_FIELDS, "cost"]);
    expect(u.cost).toStrictEqual({
      input: 10 / 1e6,
      output: 10 / 1e6,
      cacheRead: 0,
      cacheWrite: 0,
      total: 20 / 1e6,
    });
  });
});

describe("messages", () => {
  it("builds a user message of one text block", () => {
    expect(JSON.stringify(userMessage("hi", 5))).toBe(
      '{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":5}',
    );
  });

  it("builds an assistant message in pi's key order, Sonnet by default", () => {
    const usage = usageRecord({ input: 1, output: 1, cacheRead: 0, cacheWrite: 0 });
    const m = assistantMessage({ content: [textBlock("ok")], usage, timestamp: 9 });
    expect(JSON.stringify(m)).toBe(
      `{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"anthropic-messages",` +
        `"provider":"anthropic","model":"claude-sonnet-4-5","usage":${JSON.stringify(usage)},` +
        `"stopReason":"stop","timestamp":9}`,
    );
    const gpt = assistantMessage({
      content: [],
      usage,
      timestamp: 9,
      api: "openai-responses",
      provider: "openai",
      model: "gpt-5",
      stopReason: "toolUse",
    });
    expect(gpt).toMatchObject({ api: "openai-responses", provider: "openai", model: "gpt-5" });
    expect(gpt.stopReason).toBe("toolUse");
  });
});
