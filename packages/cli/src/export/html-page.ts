/**
 * The self-contained HTML transcript: one page, inline CSS, no scripts and no external
 * resources, so it can be mailed or archived and opens the same anywhere. Branches are
 * flat sections (see `segments.ts`) with visible fork markers; compactions and branch
 * summaries are boxed so they stand out from the conversation.
 */
import type { SessionEntry, SessionHeader } from "@pi-sessions/core";
import type { Renderers } from "@pi-sessions/plugins";
import { type EntryHtmlContext, entryHtml } from "./html-entry.js";
import { entryAnchor, escapeHtml as esc } from "./html-escape.js";
import { type Segment, segmentTree } from "./segments.js";

/** Everything the page shows about one session. */
export interface HtmlExportInput {
  readonly header: SessionHeader | null;
  /** Every entry of the session, in file order. */
  readonly entries: readonly SessionEntry[];
  /** Root → current leaf (or → `--leaf`). */
  readonly path: readonly SessionEntry[];
  /** `branch`: the path only, with markers where other branches fork; `tree`: every branch. */
  readonly scope: "branch" | "tree";
  readonly sessionName?: string | undefined;
  /** Whether the path ends at the session's own leaf (else at a leaf the user chose). */
  readonly leafIsCurrent: boolean;
  /** Where the session was read from, shown in the page header. */
  readonly source?: string;
  readonly getLabel: (id: string) => string | undefined;
  /**
   * Plugin renderers (`registry.renderers()`): entries of their custom types show what the
   * plugin's renderer says, as in the Markdown export. Default: the built-in renderings only.
   */
  readonly renderers?: Renderers;
}

const CSS = `
:root{--fg:#1d2330;--muted:#5d6677;--line:#d9dee7;--bg:#f6f7f9;--card:#fff;--user:#e8f0fe;--asst:#fff;--tool:#f3f4f6;--comp:#fff4d6;--compb:#e0a800;--bs:#e6f6ea;--bsb:#2f9e44;--fork:#7048e8}
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:960px;margin:0 auto;padding:24px}
header.session{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:16px 20px;margin-bottom:20px}
header.session h1{margin:0 0 8px;font-size:20px}header.session dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0;color:var(--muted)}header.session dd{margin:0;word-break:break-all}
section.branch{border-left:4px solid var(--line);padding-left:14px;margin:28px 0}section.branch.current{border-left-color:#4263eb}
section.branch>h2{font-size:16px;margin:0 0 10px}section.branch>h2 .sub{font-weight:normal;color:var(--muted);font-size:13px}
article.entry{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px 12px;margin:8px 0}
article.r-user{background:var(--user)}article.r-toolResult,article.r-bashExecution{background:var(--tool)}
article.t-compaction{background:var(--comp);border:2px solid var(--compb)}article.t-branch_summary{background:var(--bs);border:2px solid var(--bsb)}
article.t-label,article.t-model_change,article.t-thinking_level_change,article.t-session_info{padding:4px 12px;font-size:13px;color:var(--muted)}
article.leaf{box-shadow:0 0 0 3px #4263eb55}
.ids{font-size:11px;color:var(--muted)}.head{margin:2px 0 4px;font-weight:600}.head code,.head a{font-weight:normal}
.meta{color:var(--muted);font-size:12px}pre.quote{border-left:3px solid var(--line);padding-left:8px;color:var(--muted);font:inherit}
.label-badge,.leaf-badge{border-radius:10px;padding:0 8px;font-size:11px;background:#fff3bf;color:#5c4400}.leaf-badge{background:#dbe4ff;color:#233}
pre{white-space:pre-wrap;word-break:break-word;margin:4px 0;font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}pre.text{font:inherit}
pre.raw{background:#f1f3f5;padding:6px 8px;border-radius:4px}
.fork{margin:6px 0 6px 16px;padding:6px 10px;border:1px dashed var(--fork);border-radius:6px;color:var(--fork);font-size:13px;background:#f3f0ff}
.fork a{color:var(--fork)}
`;

/** The fork marker under an entry that other branches hang off. */
function forkHtml(at: SessionEntry, branches: readonly Segment[], linked: boolean): string {
  const items = branches.map((s) => {
    const last = s.entries[s.entries.length - 1];
    const name = `branch ${s.number}`;
    const text = linked
      ? `<a href="#branch-${s.number}">${name}</a>`
      : `${name} (ends at <code>${esc(last?.id ?? "")}</code>)`;
    return `<li>${text}, ${s.entries.length} entries</li>`;
  });
  return `<aside class="fork" data-fork-at="${esc(at.id)}">↳ ${branches.length} other branch${branches.length === 1 ? "" : "es"} fork${branches.length === 1 ? "s" : ""} here<ul>${items.join("")}</ul></aside>`;
}

function segmentHtml(
  segment: Segment,
  forks: ReadonlyMap<string, readonly Segment[]>,
  ctx: EntryHtmlContext,
  leaf: { readonly id: string | null; readonly badge: string },
  linked: boolean,
): string {
  const title = segment.unreachable
    ? "Unreachable entries"
    : segment.current
      ? `Branch ${segment.number} — current`
      : `Branch ${segment.number}`;
  const from =
    segment.forkFrom === null
      ? segment.unreachable
        ? "no root reaches these entries (damaged parent links)"
        : "from the root"
      : `forks from <a href="#${entryAnchor(segment.forkFrom)}"><code>${esc(segment.forkFrom)}</code></a>`;
  const parts: string[] = [];
  for (const entry of segment.entries) {
    parts.push(entryHtml(entry, ctx, entry.id === leaf.id ? leaf.badge : undefined));
    const off = forks.get(entry.id);
    if (off && off.length > 0) parts.push(forkHtml(entry, off, linked));
  }
  return `<section class="branch${segment.current ? " current" : ""}" id="branch-${segment.number}"><h2>${esc(title)} <span class="sub">${from} · ${segment.entries.length} entries</span></h2>${parts.join("\n")}</section>`;
}

/** Renders the whole page. Pure; O(entries). */
export function renderHtmlPage(input: HtmlExportInput): string {
  const { segments, forks } = segmentTree(input.entries, input.path);
  const shown = input.scope === "tree" ? segments : segments.filter((s) => s.current);
  const onPage = new Set<string>();
  for (const s of shown) for (const e of s.entries) onPage.add(e.id);
  // The first entry with an id wins, as in the tree (a reused id's later copies are shadowed).
  const byId = new Map<string, SessionEntry>();
  for (const e of input.entries) if (!byId.has(e.id)) byId.set(e.id, e);
  const ctx: EntryHtmlContext = {
    getLabel: input.getLabel,
    isOnPage: (id) => onPage.has(id),
    getEntry: (id) => byId.get(id),
    renderers: input.renderers,
  };
  const leafId = input.path[input.path.length - 1]?.id ?? null;
  const leaf = { id: leafId, badge: input.leafIsCurrent ? "current leaf" : "selected leaf" };
  const h = input.header;
  const title = input.sessionName ?? h?.id ?? "pi session";
  const facts: [string, string | undefined][] = [
    ["session", h?.id],
    ["cwd", h?.cwd],
    ["created", h?.timestamp],
    ["forked from", h?.parentSession],
    ["file", input.source],
    ["leaf", leafId ?? "(none)"],
    [
      "shown",
      `${input.scope === "tree" ? "whole tree" : "one branch"}: ${shown.reduce((n, s) => n + s.entries.length, 0)} of ${input.entries.length} entries, ${segments.length} branch${segments.length === 1 ? "" : "es"} in the session`,
    ],
  ];
  const dl = facts
    .filter((f): f is [string, string] => typeof f[1] === "string")
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
    .join("");
  const body =
    shown.length === 0
      ? '<p class="empty">This session has no entries.</p>'
      : shown.map((s) => segmentHtml(s, forks, ctx, leaf, input.scope === "tree")).join("\n");
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="pi-sessions export">
<title>${esc(title)}</title><style>${CSS}</style></head>
<body><main><header class="session"><h1>${esc(title)}</h1><dl>${dl}</dl></header>
${body}
</main></body></html>
`;
}
