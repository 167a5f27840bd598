import { EntryRejectedError, SessionManager, type Usage } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";

const usage = (input: unknown) =>
  ({
    input,
    output: 1,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 2,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  }) as unknown as Usage;

describe("strict append (options.strict)", () => {
  it("refuses an entry that does not match its codec, naming the field, and changes nothing", () => {
    const sm = SessionManager.inMemory("/tmp/p", { strict: true });
    sm.appendMessage({ role: "user", content: "hi", timestamp: 1 });
    const before = sm.getEntries();
    let error: unknown;
    try {
      sm.appendUsage("summary", "p", "m", usage("400"));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EntryRejectedError);
    expect((error as Error).message).toContain('usage.input: expected number, got "400"');
    expect((error as EntryRejectedError).issues.map((i) => i.path)).toEqual(["usage.input"]);
    expect(sm.getEntries()).toEqual(before);
  });

  it("names every wrong field in one message", () => {
    const sm = SessionManager.inMemory("/tmp/p", { strict: true });
    expect(() => sm.appendModelChange(1 as never, null as never)).toThrow(
      "provider: expected string, got number 1; modelId: expected string, got null",
    );
  });

  it("accepts valid entries, unknown fields and extension types", () => {
    const sm = SessionManager.inMemory("/tmp/p", { strict: true });
    sm.appendUsage("summary", "p", "m", usage(400));
    sm.appendMessage({ role: "user", content: "hi", timestamp: 1, extra: true } as never);
    sm.appendCustomEntry("anything", { x: 1 });
    expect(sm.getEntries()).toHaveLength(3);
  });

  it("is off by default, as in pi", () => {
    const sm = SessionManager.inMemory("/tmp/p");
    expect(() => sm.appendUsage("summary", "p", "m", usage("400"))).not.toThrow();
  });
});
