/**
 * `export --format md`: a Markdown transcript made by the plugins' headless renderers
 * (`renderBranch` for one branch, `renderTree` for all of them) under a short header that says
 * which session, file and leaf it shows.
 */
import type { SessionEntry } from "@pi-sessions/core";
import {
  createRenderContext,
  type Renderers,
  renderBranch,
  renderTree,
} from "@pi-sessions/plugins";
import type { SessionView } from "./session-view.js";

/**
 * The Markdown transcript of `s`: the branch to `leafId`, or (`tree`) the whole tree; a
 * plugin's entry types by `renderers` (`--plugin`), the rest by the defaults.
 */
export function renderMarkdownTranscript(
  s: SessionView,
  scope: "branch" | "tree",
  leafId: string | null,
  renderers?: Renderers,
): string {
  const { escape: md } = createRenderContext({ format: "markdown" });
  const entries = s.entries as SessionEntry[];
  const session = {
    getEntries: () => entries.slice(),
    getLeafId: () => leafId,
    getLabel: (id: string) => s.label(id),
  };
  const h = s.header;
  const facts = [
    `- session: \`${md(h.id)}\``,
    `- cwd: ${md(String(h.cwd ?? ""))}`,
    `- file: ${md(s.path)}`,
    h.parentSession ? `- forked from: ${md(h.parentSession)}` : undefined,
    `- ${scope === "tree" ? "whole tree" : "branch"} ${leafId === null ? "(no leaf)" : `at leaf \`${md(leafId)}\`${leafId === s.leafId ? " (current)" : ""}`}`,
  ].filter((line): line is string => line !== undefined);
  const body =
    scope === "tree"
      ? renderTree(session, { format: "markdown", renderers })
      : renderBranch(session, leafId, { format: "markdown", renderers });
  return `# ${md(s.name ?? h.id)}\n\n${facts.join("\n")}\n\n${body}`;
}
