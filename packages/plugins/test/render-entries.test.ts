import { renderEntry } from "@pi-sessions/plugins";
import { describe, expect, it } from "vitest";

const base = { id: "e1", parentId: null, timestamp: "2025-01-01T00:00:00.000Z" };
const md = (entry: unknown) => renderEntry(entry, { format: "markdown" });
const txt = (entry: unknown) => renderEntry(entry, { format: "text" });
const msg = (message: unknown) => ({ ...base, type: "message", message });
const u = {
  input: 1200,
  output: 30,
  cacheRead: 2100,
  cacheWrite: 10,
  cacheWrite1h: 4,
  reasoning: 2,
  totalTokens: 3340,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.0123 },
};

describe("default renderers: message roles", () => {
  it("user: string content and text + image blocks", () => {
    expect(md(msg({ role: "user", content: "Hello *world*", timestamp: 1 }))).toBe(
      "### User · `e1`\n\nHello *world*",
    );
    expect(txt(msg({ role: "user", content: "Hello", timestamp: 1 }))).toBe("User [e1]\n  Hello");
    const blocks = md(
      msg({
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ],
      }),
    );
    expect(blocks).toBe("### User · `e1`\n\nlook\n\n_image image/png · 3 bytes_");
  });

  it("assistant: thinking, text, tool call, stop reason and usage", () => {
    const out = md(
      msg({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan\nmore" },
          { type: "thinking", thinking: "secret", redacted: true },
          { type: "text", text: "Running it." },
          { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "ls" } },
        ],
        provider: "anthropic",
        model: "claude",
        responseModel: "claude-2025",
        usage: u,
        stopReason: "error",
        errorMessage: "overloaded",
      }),
    );
    expect(out).toBe(
      [
        "### Assistant · anthropic/claude-2025 · `e1`",
        "> Thinking: plan\n> more",
        "_thinking (redacted)_",
        "Running it.",
        '**Tool call** `bash` · `call_1`\n```json\n{\n  "command": "ls"\n}\n```',
        "_stopped: error — overloaded_",
        "_usage: 1,200 in · 30 out · 2,100 cache read · 10 cache write (4 for 1h) · 2 reasoning · $0.0123_",
      ].join("\n\n"),
    );
    expect(
      txt(msg({ role: "assistant", content: [], provider: "p", model: "m", stopReason: "stop" })),
    ).toBe("Assistant · p/m [e1]");
  });

  it("toolResult: output as a literal block, error flag, nested usage, cut at maxTextLength", () => {
    const result = {
      role: "toolResult",
      toolCallId: "c",
      toolName: "read",
      content: [{ type: "text", text: "# not a heading\n```" }],
      isError: true,
      usage: u,
    };
    const out = md(msg(result));
    expect(out).toContain("### Tool result · `read` · error · `e1`");
    // The output is inside a fence longer than any backtick run in it.
    expect(out).toContain("````\n# not a heading\n```\n````");
    expect(out).toContain("_usage: 1,200 in");
    const long = renderEntry(
      msg({ ...result, content: [{ type: "text", text: "y".repeat(50) }] }),
      { maxTextLength: 10 },
    );
    expect(long).toContain(`${"y".repeat(10)}… [40 more characters]`);
  });

  it("bashExecution: command and output, exit code, flags", () => {
    expect(
      md(
        msg({
          role: "bashExecution",
          command: "ls",
          output: "a\nb",
          exitCode: 2,
          cancelled: true,
          truncated: true,
          fullOutputPath: "/tmp/o",
          excludeFromContext: true,
        }),
      ),
    ).toBe(
      "### Bash · excluded from context · `e1`\n\n```console\n$ ls\na\nb\n```\n\n_exit code 2 · cancelled · output truncated, full output in `/tmp/o`_",
    );
  });

  it("custom, branchSummary, compactionSummary, system and unknown roles", () => {
    expect(md(msg({ role: "custom", customType: "note", content: "hi", display: false }))).toBe(
      "### Custom message · note · hidden · `e1`\n\nhi",
    );
    expect(md(msg({ role: "branchSummary", summary: "went left", fromId: "x" }))).toBe(
      "### Branch summary · `e1`\n\nwent left",
    );
    expect(md(msg({ role: "compactionSummary", summary: "short", tokensBefore: 5000 }))).toBe(
      "### Compaction summary · `e1`\n\n_5,000 tokens before_\n\nshort",
    );
    expect(
      txt(
        msg({
          role: "system",
          content: "You are pi.",
          toolsAdded: [{ name: "bash" }],
          toolsRemoved: [{ name: "x" }],
        }),
      ),
    ).toBe("System prompt [e1]\n  You are pi.\n\n  (tools added: bash)\n\n  (tools removed: x)");
    expect(md(msg({ role: "weird", x: 1 }))).toBe(
      '### Message · role weird · `e1`\n\n```json\n{\n  "role": "weird",\n  "x": 1\n}\n```',
    );
  });
});

describe("default renderers: a pi 1.6 system message", () => {
  // As pi 1.6 writes it (docs/session-format.md): the prompt is in `sections`, `content` is "".
  const system = msg({
    role: "system",
    content: "",
    sections: { preamble: "You are an expert coding assistant...", gone: null, cwd: "/project" },
    toolsAdded: [{ name: "read", description: "...", parameters: {} }],
    timestamp: 1733234400000,
  });

  it("Markdown shows its sections in order and the tools it adds", () => {
    expect(md(system)).toBe(
      "### System prompt · `e1`\n\n```\nYou are an expert coding assistant...\n\n/project\n```\n\n_tools added: `read`_\n\n_sections removed: `gone`_",
    );
  });

  it("text shows its sections in order and the tools it adds", () => {
    expect(txt(system)).toBe(
      "System prompt [e1]\n  You are an expert coding assistant...\n\n  /project\n\n  (tools added: read)\n\n  (sections removed: gone)",
    );
  });
});

describe("default renderers: entry types", () => {
  it("one-line entries", () => {
    expect(md({ ...base, type: "thinking_level_change", thinkingLevel: "high" })).toBe(
      "_Thinking level: high_ · `e1`",
    );
    expect(txt({ ...base, type: "model_change", provider: "openai", modelId: "gpt-5" })).toBe(
      "Model: openai/gpt-5 [e1]",
    );
    expect(md({ ...base, type: "session_info", name: "  Docs  " })).toBe(
      "_Session name: Docs_ · `e1`",
    );
    expect(md({ ...base, type: "session_info", name: "" })).toBe("_Session name cleared_ · `e1`");
    expect(md({ ...base, type: "label", targetId: "t1", label: "keep" })).toBe(
      '_Label "keep" on `t1`_ · `e1`',
    );
    expect(txt({ ...base, type: "label", targetId: "t1" })).toBe("Label cleared on t1 [e1]");
    expect(md({ ...base, type: "context_edit", targetId: "t1", replacement: null })).toBe(
      "_Context edit: `t1` removed from context_ · `e1`",
    );
  });

  it("a target known to the context gets a hint of what it is", () => {
    const target = msg({ role: "assistant", content: [] });
    const out = renderEntry(
      { ...base, type: "label", targetId: "t1", label: "x" },
      { getEntry: (id) => (id === "t1" ? (target as never) : undefined) },
    );
    expect(out).toBe('_Label "x" on `t1` (assistant)_ · `e1`');
  });

  it("compaction and branch_summary with their facts, summary and usage", () => {
    expect(
      md({
        ...base,
        type: "compaction",
        summary: "sum",
        firstKeptEntryId: "k",
        tokensBefore: 9000,
        usage: u,
      }),
    ).toBe(
      "### Compaction · `e1`\n\n_9,000 tokens summarised · kept from `k`_\n\nsum\n\n_usage: 1,200 in · 30 out · 2,100 cache read · 10 cache write (4 for 1h) · 2 reasoning · $0.0123_",
    );
    expect(
      md({ ...base, type: "compaction", summary: "s", firstKeptEntryId: "e1", fromHook: true }),
    ).toContain("_nothing kept · by an extension_");
    expect(md({ ...base, type: "branch_summary", fromId: "root", summary: "s" })).toBe(
      "### Branch summary · `e1`\n\n_left branch at the root_\n\ns",
    );
  });

  it("custom, custom_message, usage, context_edit replacement", () => {
    expect(md({ ...base, type: "custom", customType: "todo", data: { n: 1 } })).toBe(
      '### Custom entry · todo · `e1`\n\n```json\n{\n  "n": 1\n}\n```',
    );
    expect(txt({ ...base, type: "custom", customType: "todo" })).toBe(
      "Custom entry · todo [e1]\n  (no data)",
    );
    expect(
      md({ ...base, type: "custom_message", customType: "r", content: "Run tests", display: true }),
    ).toBe("### Custom message · r · `e1`\n\nRun tests");
    expect(
      md({
        ...base,
        type: "usage",
        kind: "warm",
        provider: "p",
        model: "m",
        usage: { input: 1, output: 2, cost: { total: 1.5 } },
        note: "cache",
      }),
    ).toBe("### Usage · warm · p/m · `e1`\n\n_usage: 1 in · 2 out · $1.50_\n\n_cache_");
    expect(
      md({ ...base, type: "context_edit", targetId: "t", replacement: { content: "new" } }),
    ).toBe("### Context edit · replaces `t` · `e1`\n\nnew");
  });

  it("unknown types, broken entries and non-entries show their JSON", () => {
    expect(md({ ...base, type: "future", foo: 1 })).toContain(
      "### Entry of unknown type future · `e1`",
    );
    expect(md({ id: "x" })).toContain("### Entry without a type · `x`");
    expect(md(42)).toBe("### Unreadable record\n\n```json\n42\n```");
    expect(md(null)).toBe("### Unreadable record\n\n```json\nnull\n```");
    const cyclic: Record<string, unknown> = { type: "future" };
    cyclic.self = cyclic;
    expect(md(cyclic)).toContain("[unserializable:");
    expect(md(msg({ role: "user", content: null }))).toContain("_unreadable content_");
  });

  it("showIds: false leaves ids out of titles", () => {
    expect(renderEntry(msg({ role: "user", content: "q" }), { showIds: false })).toBe(
      "### User\n\nq",
    );
  });

  it("hostile values: a throwing Proxy still renders", () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("trap");
        },
        ownKeys() {
          throw new Error("trap");
        },
      },
    );
    expect(typeof md(hostile)).toBe("string");
    expect(typeof md(msg(hostile))).toBe("string");
    expect(typeof md({ ...base, type: "custom", customType: "x", data: hostile })).toBe("string");
  });
});
