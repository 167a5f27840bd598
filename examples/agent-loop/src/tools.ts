/**
 * Two toy tools over an in-memory file system, so tool calls have something to return.
 */
import type { ToolCall, ToolResultMessage } from "@pi-sessions/core";

const FILES: Record<string, string> = {
  "README.md": "# Toy project\nA project the scripted agent explores.",
  "src/index.ts": 'export const answer = 42;\nconsole.log("hello");',
};

/** Runs a tool call and returns its result message. */
export function runTool(call: ToolCall): ToolResultMessage {
  let text: string;
  let isError = false;
  if (call.name === "ls") {
    text = Object.keys(FILES).join("\n");
  } else if (call.name === "read") {
    const path = String(call.arguments.path);
    const content = FILES[path];
    isError = content === undefined;
    text = content ?? `No such file: ${path}`;
  } else {
    isError = true;
    text = `Unknown tool: ${call.name}`;
  }
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text }],
    isError,
    timestamp: 0,
  };
}
