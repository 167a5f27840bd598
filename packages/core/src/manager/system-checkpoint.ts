import type { AgentMessage, SystemMessage, ToolDefinition } from "../schema/types.js";

/**
 * [R1.6] The prompt-and-tools checkpoint a compaction records (SPEC §5.4, checked against pi
 * 1.6.0): the system messages of the current context merged in order; undefined without one.
 * Content other than a string or `text` blocks counts as empty text, where the reference would
 * throw mid-append.
 */
export function systemCheckpoint(
  messages: readonly AgentMessage[],
  timestamp: number,
): SystemMessage | undefined {
  const texts: string[] = [];
  const sections = new Map<string, string>();
  const tools = new Map<string, ToolDefinition>();
  let any = false;
  for (const m of messages) {
    if (m?.role !== "system") continue;
    any = true;
    const content: unknown = m.content;
    const blocks = Array.isArray(content) ? content : [];
    const parts = blocks.filter((b) => b?.type === "text" && typeof b.text === "string");
    const text = typeof content === "string" ? content : parts.map((b) => b.text).join("\n");
    if (text) texts.push(text);
    if (m.sections && typeof m.sections === "object") {
      for (const [name, value] of Object.entries(m.sections)) {
        if (value === null) sections.delete(name);
        else sections.set(name, value);
      }
    }
    for (const removed of m.toolsRemoved ?? []) tools.delete(removed.name);
    for (const added of m.toolsAdded ?? []) tools.set(added.name, added);
  }
  if (!any) return undefined;
  return {
    role: "system",
    content: texts.join("\n\n"),
    sections: sections.size > 0 ? Object.fromEntries(sections) : undefined,
    toolsAdded: tools.size > 0 ? [...tools.values()] : undefined,
    timestamp,
  };
}
