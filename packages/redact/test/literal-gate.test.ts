/**
 * The gate in front of the rule set: texts that share a beginning with another rule's literal
 * still reach every rule whose literal they hold (regression: the scan reported only the
 * longest literal starting at a position, so a rule whose literal was a prefix of another's
 * there was never handed the text).
 */
import { redactSession } from "@pi-sessions/redact";
import { describe, expect, it } from "vitest";

const line = (data: string) =>
  JSON.stringify({
    type: "custom",
    id: "a",
    parentId: null,
    timestamp: "t",
    customType: "x",
    data,
  });

describe("the literal gate", () => {
  it("hands a text to a rule whose literal is a prefix of another rule's literal at the same place", async () => {
    // Literals `tk_` (of `short`) and `tk_Q` (of `long`) start at the same place in `tk_Q123`;
    // the scan matches the longer there, and `short` must still see the text. (The many `k`s
    // make `t` the rarest character of `tk_Q`, so `tk_Q` is looked for whole.)
    const text = `{"type":"session","id":"s"}\n${line(`${"k".repeat(200)} tk_Q123 end`)}\n`;
    const r = await redactSession(text, {
      patterns: [
        { name: "short", regex: /tk_\w+/ },
        { name: "long", regex: /tk_Q[0-9]+Z/ },
      ],
    });
    expect(r.text).toContain(" [REDACTED:short#1] end");
  });
});
