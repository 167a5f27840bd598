/**
 * `renderBranch`: the transcript of one branch, root → leaf.
 */
import { EntryNotFoundError, type FileEntry } from "@pi-sessions/core";
import { fmtOf } from "./format.js";
import { installedRenderersOf } from "./installed-renderers.js";
import { createRenderContext, type RenderOptions, renderEntryIn } from "./render-entry.js";
import { indexSession, type RenderableSession, type SessionIndex } from "./session-index.js";
import { formatInt } from "./text.js";

/** Blocks are separated by one blank line; a transcript ends with a newline. */
export function joinBlocks(blocks: readonly string[]): string {
  return blocks.length === 0 ? "" : `${blocks.join("\n\n")}\n`;
}

/** Options of {@link renderBranch}. */
export interface RenderBranchOptions extends RenderOptions {
  /** Note under each entry where other branches leave the path (default true). */
  readonly branchPoints?: boolean;
}

function resolveLeaf(index: SessionIndex, leafId: string | null | undefined): string | null {
  if (leafId === undefined) return index.leafId;
  if (leafId !== null && index.tree.positionOf(leafId) < 0) throw new EntryNotFoundError(leafId);
  return leafId;
}

/**
 * The transcript of the branch root → `leafId` (default: the manager's leaf, or the last
 * record), every entry rendered with {@link renderEntry}'s rules and labels shown under their
 * targets. Where the session branches off the path, a note counts the other branches.
 * `source` is a session manager or the records in file order (a header is skipped); a
 * manager's installed plugins' renderers apply unless `options.renderers` is given. Throws
 * core's `EntryNotFoundError` for an unknown `leafId`; never throws on damaged records.
 */
export function renderBranch(
  source: readonly FileEntry[] | RenderableSession,
  leafId?: string | null,
  options: RenderBranchOptions = {},
): string {
  const index = indexSession(source);
  const leaf = resolveLeaf(index, leafId);
  // Root → leaf along the file's links, stopping at a repeat (SPEC §7.6, W14).
  const leafPos = leaf === null ? -1 : index.tree.positionOf(leaf);
  const path = leafPos < 0 ? [] : index.tree.pathTo(leafPos);
  const ctx = createRenderContext({
    ...options,
    getEntry: options.getEntry ?? index.getEntry,
    getLabel: options.getLabel ?? index.getLabel,
  });
  const renderers = options.renderers ?? installedRenderersOf(source);
  const fmt = fmtOf(ctx.format);
  const blocks = path.map((pos, i) => {
    const block = renderEntryIn(index.records[pos], ctx, renderers);
    // Every record naming this one as parent counts, a cycle member cut off the tree too.
    const count = options.branchPoints === false ? 0 : index.tree.linkedChildren(pos).length;
    // One child of an inner entry is the path itself; every child of the leaf is off it.
    const others = i === path.length - 1 ? count : count - 1;
    if (others < 1) return block;
    const other = i === path.length - 1 ? "" : "other ";
    const branches = others === 1 ? `1 ${other}branch` : `${formatInt(others)} ${other}branches`;
    return fmt.attach(block, fmt.note(`${branches} continue${others === 1 ? "s" : ""} from here`));
  });
  return joinBlocks(blocks);
}
