/** Small hand-made session files for the search and fault tests. */

import { assistantMessage, textBlock, usageRecord, userMessage } from "@pi-sessions/test-utils";

/** One line of a hand-made session. */
export type Turn =
  | { readonly user: string }
  | { readonly assistant: string; readonly model?: string }
  | { readonly toolResult: string }
  | { readonly custom: string };

const DAY = 24 * 3600 * 1000;

/**
 * A v3 session: header, then one entry per turn, each the child of the one before, entry `i`
 * with id `e<i>` and timestamp `start + i` days.
 */
export function sessionText(
  id: string,
  cwd: string,
  turns: readonly Turn[],
  start = Date.UTC(2026, 0, 1),
): string {
  const lines: unknown[] = [
    { type: "session", version: 3, id, timestamp: new Date(start).toISOString(), cwd },
  ];
  turns.forEach((turn, i) => {
    const time = start + i * DAY;
    const base = {
      id: `e${i}`,
      parentId: i === 0 ? null : `e${i - 1}`,
      timestamp: new Date(time).toISOString(),
    };
    if ("custom" in turn) {
      lines.push({
        type: "custom_message",
        ...base,
        customType: "note",
        content: turn.custom,
        display: true,
      });
      return;
    }
    const message =
      "user" in turn
        ? userMessage(turn.user, time)
        : "assistant" in turn
          ? assistantMessage({
              content: [textBlock(turn.assistant)],
              usage: usageRecord({ input: 10, output: 20, cacheRead: 0, cacheWrite: 0 }),
              timestamp: time,
              ...(turn.model === undefined ? {} : { model: turn.model }),
            })
          : {
              role: "toolResult",
              toolCallId: `call${i}`,
              toolName: "bash",
              content: [textBlock(turn.toolResult)],
              isError: false,
              timestamp: time,
            };
    lines.push({ type: "message", ...base, message });
  });
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}
