/**
 * Plain oracles written from SPEC §7 (walks, cycles, labels, name) and the observable answers
 * of a `SessionState` that the fold and snapshot laws compare.
 */
import {
  branchOf,
  labelOfId,
  nameOf,
  projectionState,
  type SessionEntry,
  type SessionState,
  type SessionTreeNode,
  treeOf,
} from "@pi-sessions/core";
import {
  childrenOfId,
  contextOfSummary,
  type EntryLog,
  entriesOf,
  idAt,
  type LabelIndex,
  leafSummary,
  type PathSummary,
  resolveLabels,
  type Vec,
} from "@pi-sessions/core/internal";
import { MISSING_ID } from "./arbitraries.js";

// --- observable answers ------------------------------------------------------------------

export const vecItems = <T>(v: Vec<T>): T[] => v.items.slice(0, v.length);

/** What a summary of a path in `log` answers: path, settings and messages. */
export function summaryAnswers(log: EntryLog, s: PathSummary): unknown {
  const { messages, thinkingLevel, model } = contextOfSummary(log, s);
  return {
    path: vecItems(s.path).map((pos) => idAt(log, pos)),
    settings: { thinkingLevel, model },
    messages,
    systemMessages: messages.filter((m) => m?.role === "system"),
  };
}

/** A tree reduced to ids and labels. */
export function treeShape(nodes: readonly SessionTreeNode[]): unknown[] {
  return nodes.map((n) => [n.entry.id, n.label, n.labelTimestamp, treeShape(n.children)]);
}

/** Every query answer of a state, for the ids given and the ids it holds. */
export function answers(state: SessionState, extraIds: readonly string[] = []): unknown {
  const entries = entriesOf(state);
  const ids = [...new Set([...entries.map((e) => e.id), ...extraIds, MISSING_ID])];
  return {
    leafId: state.leafId,
    entries,
    distinct: state.log.distinct,
    labels: [...resolveLabels(projectionState(state, "labels") as LabelIndex)],
    labelOf: ids.map((id) => labelOfId(state, id)),
    name: nameOf(state),
    children: ids.map((id) => childrenOfId(state, id).map((e) => e.id)),
    tree: treeShape(treeOf(state)),
    branch: branchOf(state).map((e) => e.id),
    branches: ids.map((id) => branchOf(state, id).map((e) => e.id)),
    context: summaryAnswers(state.log, leafSummary(state) as PathSummary),
  };
}

// --- oracles -----------------------------------------------------------------------------

/** id → indexed entry (the last one wins), in the order ids first occur (SPEC W15). */
export function indexById(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
  const byId = new Map<string, SessionEntry>();
  for (const e of entries) byId.set(e.id, e);
  return byId;
}

/** The walk of SPEC §7.6, written plainly: root → start, stopping at a repeated id. */
export function walkIds(byId: ReadonlyMap<string, SessionEntry>, start: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let cur = byId.get(start);
  while (cur && !seen.has(cur.id)) {
    seen.add(cur.id);
    out.push(cur.id);
    cur = typeof cur.parentId === "string" ? byId.get(cur.parentId) : undefined;
  }
  return out.reverse();
}

/** Parent cycles among indexed entries (self-parents included), each as its member ids. */
export function cyclesOf(byId: ReadonlyMap<string, SessionEntry>): string[][] {
  const state = new Map<string, 1 | 2>();
  const cycles: string[][] = [];
  for (const start of byId.keys()) {
    const walk: string[] = [];
    let id: string | undefined = start;
    while (id !== undefined && !state.has(id)) {
      state.set(id, 1);
      walk.push(id);
      const p: string | null | undefined = byId.get(id)?.parentId;
      id = typeof p === "string" && byId.has(p) ? p : undefined;
    }
    if (id !== undefined && state.get(id) === 1) cycles.push(walk.slice(walk.indexOf(id)));
    for (const w of walk) state.set(w, 2);
  }
  return cycles;
}

/** Labels replayed over the whole file in file order: id → [label, timestamp] (SPEC §7.10). */
export function labelOracle(entries: readonly SessionEntry[]): Map<string, [string, string]> {
  const labels = new Map<string, [string, string]>();
  for (const e of entries) {
    if (e.type !== "label") continue;
    if (typeof e.label === "string" && e.label !== "") {
      labels.set(e.targetId, [e.label, e.timestamp]);
    } else labels.delete(e.targetId);
  }
  return labels;
}

/** The session name of SPEC §7.11: the latest session_info's name, trimmed, or undefined. */
export function nameOracle(entries: readonly SessionEntry[]): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e?.type === "session_info") return e.name?.trim() || undefined;
  }
  return undefined;
}
