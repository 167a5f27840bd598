import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { buildSessionInfo } from "../core-parts.js";

/**
 * messageCount counts whole message entries of every role and nothing for damaged lines
 * (SPEC §2.1, §10.5) — including lines that look like messages: glued (W1) or torn ones.
 */
const dir = tempDir("pi-info-skip-");

const header =
  '{"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}';
const tool = (id: string) =>
  `{"type":"message","id":"${id}","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"toolResult","toolCallId":"c","toolName":"read","content":[{"type":"text","text":"{\\"type\\":\\"message\\"}"}],"isError":false,"timestamp":1}}`;
const user =
  '{"type":"message","id":"u","parentId":null,"timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":"hi","timestamp":2}}';

function infoOf(lines: string[]) {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return buildSessionInfo(file);
}

describe("buildSessionInfo counts whole messages only", () => {
  it("a whole tool result counts; so does one quoting JSON of a message in its text", () => {
    expect(infoOf([header, tool("t1"), user])?.messageCount).toBe(2);
  });

  it("a torn tool result glued to a whole one (W1) is one malformed line: not counted", () => {
    const torn = tool("t1").slice(0, 120);
    expect(infoOf([header, torn + tool("t2"), user])?.messageCount).toBe(1);
  });

  it("a tool result torn right after a nested object (ends in }}) is malformed: not counted", () => {
    const whole = tool("t1").replace(',"isError"', ',"details":{"a":{"b":1}},"isError"');
    const torn = whole.slice(0, whole.indexOf('{"b":1}}') + '{"b":1}}'.length);
    expect(torn.endsWith("}}")).toBe(true);
    expect(infoOf([header, torn, user])?.messageCount).toBe(1);
  });

  it("a tool result with a key after its message is parsed normally and counted", () => {
    const extra = tool("t1").replace(/}$/, ',"extra":1}');
    expect(infoOf([header, extra, user])?.messageCount).toBe(2);
  });
});
