/**
 * The gate in front of the rule set: texts that share a beginning with another rule's literal
 * still reach every rule whose literal they hold (regression: the scan reported only the
 * longest literal starting at a position, so a rule whose literal was a prefix of another's
 * there was never handed the text; and: a case-insensitive literal that began like another
 * literal spelled in another case was never reported where that other matched first).
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

  it("hands a text to a case-insensitive rule whose literal begins like another rule's in another case", async () => {
    // `TKN` (case-sensitive, of `upper`) and `tkn_` (any case, of `lower`) both start at the
    // same place of `tkn_123`. With one trie branch per spelling the scan stopped at `TKN`,
    // matched there in the wrong case, and `lower` never saw the text.
    const text = `{"type":"session","id":"s"}\n${line(`${"k".repeat(200)} tkn_123 end`)}\n`;
    const r = await redactSession(text, {
      patterns: [
        { name: "upper", regex: /TKN/ },
        { name: "lower", regex: /tkn_[0-9]+/i },
      ],
    });
    expect(r.text).toContain(" [REDACTED:lower#1] end");
  });
});
