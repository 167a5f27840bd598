import { renderBranch, renderEntry } from "@pi-sessions/plugins";
import { describe, expect, it } from "vitest";

const base = { parentId: null, timestamp: "2025-01-01T00:00:00.000Z" };
const user = (id: string, content: string, parentId: string | null = null) => ({
  ...base,
  id,
  parentId,
  type: "message",
  message: { role: "user", content, timestamp: 1 },
});

describe("Markdown escaping", () => {
  it("metadata is escaped inline: emphasis, links, HTML, tables, entities, line breaks", () => {
    const out = renderEntry({
      ...base,
      id: "e",
      type: "session_info",
      name: "*bold* [x](y) <b>|&amp;\nnext",
    });
    // `]` alone stops a link; `[` stays bare (pi's Markdown reads `\[` as math).
    expect(out).toBe("_Session name: \\*bold\\* [x\\](y) \\<b\\>\\|\\&amp; next_ · `e`");
  });

  it("a block marker at the start of escaped text is escaped", () => {
    const at = (name: string) =>
      renderEntry(
        { ...base, id: "e", type: "model_change", provider: name, modelId: "m" },
        { showIds: false },
      );
    // After "Model: " the text is mid-line, but ctx.escape must be safe at a line start too.
    expect(at("# p")).toBe("_Model: \\# p/m_");
    expect(at("1. p")).toBe("_Model: 1\\. p/m_");
    expect(at("- p")).toBe("_Model: \\- p/m_");
  });

  it("ids and tool names become code spans the text cannot close", () => {
    const out = renderEntry({
      ...base,
      id: "a`b",
      type: "thinking_level_change",
      thinkingLevel: "low",
    });
    expect(out).toBe("_Thinking level: low_ · ``a`b``");
    const edge = renderEntry({
      ...base,
      id: "`x",
      type: "thinking_level_change",
      thinkingLevel: "low",
    });
    expect(edge.endsWith("`` `x ``")).toBe(true);
  });

  it("literal blocks use a fence longer than any backtick run inside", () => {
    const out = renderEntry({ ...base, id: "e", type: "custom", customType: "t", data: "`````" });
    expect(out).toContain('``````json\n"`````"\n``````');
  });

  it("prose stays Markdown, but an unclosed fence is closed so it cannot swallow later entries", () => {
    const entries = [user("a", "see:\n```js\nconst x = 1;"), user("b", "second", "a")];
    const out = renderBranch(entries as never);
    expect(out).toBe(
      "### User · `a`\n\nsee:\n```js\nconst x = 1;\n```\n\n### User · `b`\n\nsecond\n",
    );
    // A closed fence, a tilde fence and a longer closing fence need nothing added.
    expect(renderEntry(user("c", "```\nx\n```"))).toBe("### User · `c`\n\n```\nx\n```");
    expect(renderEntry(user("c", "~~~~\nx\n~~~"))).toBe("### User · `c`\n\n~~~~\nx\n~~~\n~~~~");
    expect(renderEntry(user("c", "```\nx\n`````"))).toBe("### User · `c`\n\n```\nx\n`````");
  });

  it("headings in prose nest under the entry's level-3 title; fenced ones stay as written", () => {
    const out = renderEntry(user("h", "# Plan\n## Step\n#### Deep\n```\n# comment\n```\n#hashtag"));
    expect(out).toBe(
      "### User · `h`\n\n#### Plan\n##### Step\n###### Deep\n```\n# comment\n```\n#hashtag",
    );
  });

  it("control characters and bidi overrides become visible in both formats", () => {
    const text = "red\u001b[31m\u0000\u202Eend\r\nnext\rx";
    for (const format of ["markdown", "text"] as const) {
      const out = renderEntry(user("e", text), { format });
      expect(out).toContain("red\u241b[31m\u2400\ufffdend\n");
      expect(out).toContain("next\u240dx");
    }
  });

  it("text format does not escape Markdown", () => {
    const out = renderEntry(
      { ...base, id: "e", type: "session_info", name: "*x* <y>" },
      { format: "text" },
    );
    expect(out).toBe("Session name: *x* <y> [e]");
  });
});
