import type {
  AgentMessage,
  SessionEntry,
  SessionManager,
  SessionTreeNode,
} from "@pi-sessions/core";

/** One-line description of an entry for the tree view. */
export function describeEntry(entry: SessionEntry): string {
  switch (entry.type) {
    case "message":
      return `${entry.message.role}: ${textOf(entry.message)}`;
    case "compaction":
      return `[compaction] ${entry.summary}`;
    case "branch_summary":
      return `[branch summary] ${entry.summary}`;
    case "model_change":
      return `[model] ${entry.provider}/${entry.modelId}`;
    case "thinking_level_change":
      return `[thinking] ${entry.thinkingLevel}`;
    case "label":
      return `[label] ${entry.targetId} → ${entry.label ?? "(cleared)"}`;
    case "session_info":
      return `[name] ${entry.name ?? ""}`;
    default:
      return `[${entry.type}]`;
  }
}

/** Plain text of a message: string content, or its text blocks joined. */
export function textOf(message: AgentMessage): string {
  if (message.role === "branchSummary" || message.role === "compactionSummary")
    return message.summary;
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b: { type?: string; text?: string; name?: string }) =>
      b.type === "text" ? b.text : b.type === "toolCall" ? `(tool ${b.name})` : "",
    )
    .filter(Boolean)
    .join(" ");
}

/** The tree as indented lines, marking labels and the current leaf. Iterative. */
export function renderTree(sm: SessionManager): string[] {
  const leaf = sm.getLeafId();
  const lines: string[] = [];
  const stack: { node: SessionTreeNode; depth: number }[] = sm
    .getTree()
    .reverse()
    .map((node) => ({ node, depth: 0 }));
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: SessionTreeNode; depth: number };
    const marks = `${node.label ? ` #${node.label}` : ""}${node.entry.id === leaf ? "  ← leaf" : ""}`;
    lines.push(`${"  ".repeat(depth)}${node.entry.id} ${describeEntry(node.entry)}${marks}`);
    for (let i = node.children.length - 1; i >= 0; i--) {
      stack.push({ node: node.children[i] as SessionTreeNode, depth: depth + 1 });
    }
  }
  return lines;
}

/** The context at the leaf, one message per line. */
export function renderContext(sm: SessionManager): string[] {
  const ctx = sm.buildSessionContext();
  const model = ctx.model ? `${ctx.model.provider}/${ctx.model.modelId}` : "none";
  return [
    `model ${model}, thinking ${ctx.thinkingLevel}`,
    ...ctx.messages.map((m, i) => `${i + 1}. ${m.role}: ${textOf(m)}`),
  ];
}
