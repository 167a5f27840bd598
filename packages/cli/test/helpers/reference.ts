/**
 * The reference implementation (npm @earendil-works/pi-coding-agent@1.6.0), loaded by file path
 * as a black-box oracle for what `ls`, `tree` and `context` must show. It writes to the files
 * it opens (it migrates v1 files in place), so it is only ever given copies.
 */

import { copyFileSync, cpSync } from "node:fs";
import { basename, join } from "node:path";
import { loadReference, tempDir } from "@pi-sessions/test-utils";

/** The part of the reference's SessionManager these tests call. */
export interface ReferenceManager {
  getEntries(): { id: string; parentId: string | null; type: string }[];
  getLeafId(): string | null;
  getLabel(id: string): string | undefined;
  getBranch(fromId?: string): { id: string }[];
  getTree(): ReferenceTreeNode[];
  branch(id: string): void;
  buildSessionContext(): { messages: unknown[]; thinkingLevel: string; model: unknown };
  getSessionName(): string | undefined;
}

/** A SessionInfo as the reference's `list` gives it. */
export interface ReferenceInfo {
  path: string;
  id: string;
  cwd: string;
  name?: string;
  firstMessage: string;
  messageCount: number;
  modified: Date;
  created: Date;
}

/** The reference's `list(cwd, dir)` over a COPY of `dir` (paths mapped back to `dir`). */
export async function listWithReference(cwd: string, dir: string): Promise<ReferenceInfo[]> {
  const { SessionManager } = await loadReference<ReferenceModule>();
  const copy = tempDir("pi-sessions-ref-");
  cpSync(dir, copy, { recursive: true });
  const infos = await SessionManager.list(cwd, copy);
  return infos.map((info) => ({ ...info, path: join(dir, basename(info.path)) }));
}

/** A node of the reference's `getTree()`. */
export interface ReferenceTreeNode {
  entry: { id: string };
  children: ReferenceTreeNode[];
  label?: string;
}

interface ReferenceModule {
  SessionManager: {
    open(path: string, sessionDir?: string): ReferenceManager;
    list(cwd: string, sessionDir?: string): Promise<ReferenceInfo[]>;
  };
}

/** Opens a COPY of `path` with the reference (the original is never touched). */
export async function openWithReference(path: string): Promise<ReferenceManager> {
  const { SessionManager } = await loadReference<ReferenceModule>();
  const dir = tempDir("pi-sessions-ref-");
  const copy = join(dir, basename(path));
  copyFileSync(path, copy);
  return SessionManager.open(copy, dir);
}

/** Entries in a reference tree, pre-order, with their depth. */
export function flattenReferenceTree(
  roots: readonly ReferenceTreeNode[],
): { id: string; depth: number; parent: string | null; label?: string }[] {
  const out: { id: string; depth: number; parent: string | null; label?: string }[] = [];
  const stack = roots.map((node) => ({ node, depth: 1, parent: null as string | null })).reverse();
  while (stack.length > 0) {
    const { node, depth, parent } = stack.pop() as (typeof stack)[number];
    out.push({
      id: node.entry.id,
      depth,
      parent,
      ...(node.label !== undefined ? { label: node.label } : {}),
    });
    for (let i = node.children.length - 1; i >= 0; i--) {
      stack.push({
        node: node.children[i] as ReferenceTreeNode,
        depth: depth + 1,
        parent: node.entry.id,
      });
    }
  }
  return out;
}
