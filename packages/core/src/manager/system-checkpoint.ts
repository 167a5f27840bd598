import type { AgentMessage, SystemMessage, ToolDefinition } from "../schema/types.js";

/**
 * The text of one system message: string content as it is, or its `text` blocks joined by a
 * newline (other blocks ignored). Content of any other shape counts as empty text, where the
 * reference would throw mid-append.
 */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content) {
    if (block?.type === "text" && typeof block.text === "string") texts.push(block.text);
  }
  return texts.join("\n");
}

/**
 * [R1.6] The prompt-and-tools checkpoint a compaction records (SPEC §5.4, E26): the system
 * messages of the current context merged in order — non-empty message texts joined by a blank line,
 * sections applied (`null` deletes a name), tools removed then added by name. Returns
 * undefined when the context has no system message.
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
    const text = textOf(m.content);
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
