/**
 * `renderTree`: the whole session tree as one document, with a marker where each branch
 * starts, labels, the current leaf, and every record that is not part of the tree.
 */
import type { FileEntry } from "@pi-sessions/core";
import { fmtOf } from "./format.js";
import { installedRenderersOf } from "./installed-renderers.js";
import { createRenderContext, type RenderOptions, renderEntryIn } from "./render-entry.js";
import { indexSession, type RenderableSession } from "./session-index.js";
import { formatInt, get, prefixLines } from "./text.js";

/** Options of {@link renderTree}. */
export interface RenderTreeOptions extends RenderOptions {
  /**
   * Deepest indentation drawn (default 8). Deeper branches keep that indentation and say
   * their depth in the marker, so a deeply forked session cannot blow up the output.
   */
  readonly maxIndent?: number;
}

type Work =
  | { readonly kind: "entry"; readonly pos: number; readonly depth: number }
  | { readonly kind: "marker"; readonly text: string; readonly depth: number };

/**
 * The whole tree: roots in file order, children by timestamp (SPEC §7.8), each entry rendered
 * with {@link renderEntry}'s rules. Where an entry has several children, each child's subtree
 * is introduced by a "branch i of n" marker and indented one level (a blockquote level in
 * Markdown). Entries caught in a parent cycle are shown from the cycle's first member; records
 * that are not in the tree (shadowed duplicate ids, records without an id) are listed at the
 * end, so nothing is silently dropped. Iterative: deep trees cannot overflow the stack.
 * A manager's installed plugins' renderers apply unless `options.renderers` is given.
 * Never throws.
 */
export function renderTree(
  source: readonly FileEntry[] | RenderableSession,
  options: RenderTreeOptions = {},
): string {
  const index = indexSession(source);
  const baseCtx = createRenderContext({
    ...options,
    getEntry: options.getEntry ?? index.getEntry,
    getLabel: options.getLabel ?? index.getLabel,
  });
  const renderers = options.renderers ?? installedRenderersOf(source);
  const fmt = fmtOf(baseCtx.format);
  const maxIndent = Math.max(0, options.maxIndent ?? 8);
  const unit = baseCtx.format === "markdown" ? "> " : "| ";
  const { tree } = index;
  const visited = new Set<number>();
  /** Blocks with their drawn indentation; joined so that a branch stays one quote. */
  const blocks: { text: string; level: number; opens: boolean }[] = [];
  const emit = (text: string, depth: number, opens = false): void => {
    const level = Math.min(depth, maxIndent);
    blocks.push({ text: prefixLines(text, unit.repeat(level)), level, opens });
  };

  const walk = (start: Work): void => {
    const stack: Work[] = [start];
    while (stack.length > 0) {
      const item = stack.pop() as Work;
      if (item.kind === "marker") {
        emit(item.text, item.depth, true);
        continue;
      }
      if (visited.has(item.pos)) continue;
      visited.add(item.pos);
      const record = index.records[item.pos];
      const id = get(record, "id");
      let block = renderEntryIn(record, { ...baseCtx, depth: item.depth }, renderers);
      if (typeof id === "string" && id === index.leafId) {
        block = fmt.attach(block, fmt.note("current leaf"));
      }
      emit(block, item.depth);
      // Core's tree: children by timestamp (SPEC §7.8), a cycle already cut at its first member.
      const kids = tree.children(item.pos);
      if (kids.length === 1)
        stack.push({ kind: "entry", pos: kids[0] as number, depth: item.depth });
      for (let i = kids.length > 1 ? kids.length - 1 : -1; i >= 0; i--) {
        const depth = item.depth + 1;
        stack.push({ kind: "entry", pos: kids[i] as number, depth });
        const deep = depth > maxIndent ? ` · depth ${formatInt(depth)}` : "";
        const from = typeof id === "string" ? ` from ${fmt.code(id)}` : "";
        stack.push({
          kind: "marker",
          text: fmt.note(`branch ${i + 1} of ${kids.length}${from}${deep}`),
          depth,
        });
      }
    }
  };

  // Real roots first; a cycle's cut member is a root of core's tree but is introduced apart.
  const roots = tree.roots().filter((pos) => tree.parentOf(pos) < 0);
  roots.forEach((pos, i) => {
    if (roots.length > 1) emit(fmt.note(`root ${i + 1} of ${roots.length}`), 0);
    walk({ kind: "entry", pos, depth: 0 });
  });
  // What no real root reaches hangs off a parent cycle: shown from the cycle's cut member,
  // in the file order of the first such entry.
  for (const pos of tree.indexed) {
    if (visited.has(pos)) continue;
    let root = pos;
    while (tree.treeParentOf(root) >= 0) root = tree.treeParentOf(root);
    emit(fmt.note("entries in a parent cycle, shown from its first entry"), 0);
    walk({ kind: "entry", pos: root, depth: 0 });
  }
  const outside = index.records.filter((_r, pos) => !visited.has(pos));
  if (outside.length > 0) {
    emit(
      fmt.note(`${formatInt(outside.length)} records outside the tree (reused ids or no id)`),
      0,
    );
    for (const record of outside) emit(renderEntryIn(record, baseCtx, renderers), 0);
  }
  let out = "";
  blocks.forEach((block, i) => {
    const prev = blocks[i - 1];
    // A branch marker opens a new quote, so sibling branches read as separate blocks.
    const level = Math.max(0, Math.min(prev?.level ?? 0, block.level) - (block.opens ? 1 : 0));
    if (prev) out += `\n${unit.repeat(level).trimEnd()}\n`;
    out += block.text;
  });
  return out === "" ? "" : `${out}\n`;
}
