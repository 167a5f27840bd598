/**
 * A session as one Markdown document: what it is, what it cost, the current branch as a
 * transcript and the whole tree with its branches.
 */
import type { SessionManager } from "@pi-sessions/core";
import {
  computeUsageTotals,
  escapeMarkdownInline,
  markdownCodeSpan,
  renderBranch,
  renderTree,
  type UsageSums,
} from "@pi-sessions/plugins";

/** Options of {@link sessionTranscript}. */
export interface TranscriptOptions {
  /** Longest tool output shown per entry (default 1,500 characters). */
  readonly maxTextLength?: number;
  /** Include the whole tree after the branch (default true). */
  readonly tree?: boolean;
}

const int = (n: number): string => Math.round(n).toLocaleString("en-US");
const usd = (n: number): string => `$${n.toFixed(4)}`;

function usageRow(name: string, s: UsageSums): string {
  const cells = [s.records, s.input, s.output, s.cacheRead, s.cacheWrite, s.totalTokens].map(int);
  return `| ${name} | ${cells.join(" | ")} | ${usd(s.cost.total)} |`;
}

/** The usage section: tree and branch totals, then the tree's breakdown by model. */
function usageSection(sm: SessionManager): string {
  const { tree, branch } = computeUsageTotals(sm);
  const head = "| | calls | input | output | cache read | cache write | total tokens | cost |";
  const rule = "|---|--:|--:|--:|--:|--:|--:|--:|";
  const models = Object.entries(tree.byModel).map(([key, sums]) =>
    usageRow(markdownCodeSpan(key), sums),
  );
  return [
    "## Usage",
    [head, rule, usageRow("whole tree", tree), usageRow("current branch", branch)].join("\n"),
    "By model (whole tree):",
    [head, rule, ...models].join("\n"),
  ].join("\n\n");
}

/** The session as a Markdown document. */
export function sessionTranscript(sm: SessionManager, options: TranscriptOptions = {}): string {
  const render = { format: "markdown" as const, maxTextLength: options.maxTextLength ?? 1500 };
  const header = sm.getHeader();
  // Names, paths and ids come from the file: escaped so they cannot change the document.
  const title = escapeMarkdownInline(sm.getSessionName() ?? `Session ${sm.getSessionId()}`);
  const facts = [
    `- id: ${markdownCodeSpan(sm.getSessionId())}`,
    `- cwd: ${markdownCodeSpan(sm.getCwd())}`,
    `- started: ${escapeMarkdownInline(header?.timestamp ?? "unknown")}`,
    `- entries: ${int(sm.getEntryCount())}, current branch: ${int(sm.getBranch().length)}`,
  ];
  const parts = [
    `# ${title}`,
    facts.join("\n"),
    usageSection(sm),
    "## Current branch",
    renderBranch(sm, undefined, render).trimEnd(),
  ];
  if (options.tree !== false) parts.push("## Whole tree", renderTree(sm, render).trimEnd());
  return `${parts.join("\n\n")}\n`;
}
