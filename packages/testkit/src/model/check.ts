/**
 * Compares an implementation with the reference model through the read API: entries (JSON
 * value and key order), entry count, leaf, branch, tree shape with labels, labels and
 * children of every id, session name, header, context, projection and context entries.
 * Returns the differences as readable lines instead of throwing on the first one.
 */
import type { EntryLike, SessionManagerLike, TreeNodeLike } from "../api-calls/manager-api.js";
import { clip, describeDifference, describeThrown, orderedJson } from "./json.js";
import type { ModelTreeNode, SessionModel } from "./session-model.js";

/** Options of {@link compareWithModel}. */
export interface CompareOptions {
  /** Also query every known id: getEntry, getLabel, getChildren, getBranch (default true). */
  perId?: boolean;
}

/** A tree as a preorder list of `id [label@time] -> child ids` lines (iterative, any depth). */
function treeLines(roots: readonly (TreeNodeLike | ModelTreeNode)[]): string[] {
  const out = [`roots: ${roots.map((n) => n.entry?.id).join(",")}`];
  const stack = [...roots].reverse();
  for (let n = stack.pop(); n; n = stack.pop()) {
    const label = n.label === undefined ? "" : ` [${n.label}@${n.labelTimestamp}]`;
    out.push(`${n.entry?.id}${label} -> ${n.children.map((c) => c.entry?.id).join(",")}`);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as TreeNodeLike);
  }
  return out;
}

const ids = (entries: readonly EntryLike[] | undefined): string =>
  (entries ?? []).map((e) => e?.id).join(",");

/** Runs `read` and returns its value, or the thrown error as a difference. */
function read<T>(diffs: string[], what: string, f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    diffs.push(`${what} threw: ${describeThrown(e)}`);
    return undefined;
  }
}

function compareEntries(diffs: string[], model: SessionModel, sm: SessionManagerLike): void {
  const actual = read(diffs, "getEntries()", () => sm.getEntries()) ?? [];
  if (actual.length !== model.entries.length) {
    diffs.push(
      `getEntries(): ${actual.length} entries, expected ${model.entries.length} (${ids(actual)} vs ${ids(model.entries)})`,
    );
  }
  model.entries.forEach((expected, i) => {
    const got = orderedJson(actual[i]);
    const want = orderedJson(expected);
    if (got !== want) diffs.push(`entry #${i}: got ${clip(got)}, expected ${clip(want)}`);
  });
  const count = read(diffs, "getEntryCount()", () => sm.getEntryCount());
  if (count !== model.entries.length) {
    diffs.push(`getEntryCount(): ${count}, expected ${model.entries.length}`);
  }
}

function compareNavigation(diffs: string[], model: SessionModel, sm: SessionManagerLike): void {
  const leaf = read(diffs, "getLeafId()", () => sm.getLeafId());
  if (leaf !== model.leafId) diffs.push(`getLeafId(): ${leaf}, expected ${model.leafId}`);
  const leafEntry = read(diffs, "getLeafEntry()", () => sm.getLeafEntry());
  const wantLeaf = model.leafId === null ? undefined : model.entry(model.leafId);
  if (orderedJson(leafEntry) !== orderedJson(wantLeaf)) {
    diffs.push(
      `getLeafEntry(): ${clip(orderedJson(leafEntry))}, expected ${clip(orderedJson(wantLeaf))}`,
    );
  }
  const branch = ids(read(diffs, "getBranch()", () => sm.getBranch()));
  if (branch !== ids(model.branch()))
    diffs.push(`getBranch(): ${branch}, expected ${ids(model.branch())}`);
  const tree = read(diffs, "getTree()", () => treeLines(sm.getTree())) ?? [];
  const wantTree = treeLines(model.tree());
  if (tree.join("\n") !== wantTree.join("\n")) {
    diffs.push(
      `getTree():\n    got      ${tree.join("\n             ")}\n    expected ${wantTree.join("\n             ")}`,
    );
  }
  const name = read(diffs, "getSessionName()", () => sm.getSessionName());
  if (name !== model.name()) diffs.push(`getSessionName(): ${name}, expected ${model.name()}`);
}

function compareHeader(diffs: string[], model: SessionModel, sm: SessionManagerLike): void {
  const header = read(diffs, "getHeader()", () => sm.getHeader());
  const id = read(diffs, "getSessionId()", () => sm.getSessionId());
  const cwd = read(diffs, "getCwd()", () => sm.getCwd());
  if (header?.type !== "session" || header.version !== 3) {
    diffs.push(`getHeader(): ${clip(orderedJson(header))} is not a version 3 session header`);
  } else if (header.id !== id || header.cwd !== cwd) {
    diffs.push(
      `getHeader(): id/cwd ${header.id}/${header.cwd} differ from getSessionId()/getCwd() ${id}/${cwd}`,
    );
  }
  if (model.sessionId !== undefined && id !== model.sessionId) {
    diffs.push(
      `getSessionId(): ${id}, expected ${model.sessionId} (only createBranchedSession changes it)`,
    );
  }
}

function compareContext(diffs: string[], model: SessionModel, sm: SessionManagerLike): void {
  const want = model.projection();
  const context = read(diffs, "buildSessionContext()", () => sm.buildSessionContext());
  const d = describeDifference("buildSessionContext()", context, {
    messages: want.messages,
    thinkingLevel: want.thinkingLevel,
    model: want.model,
  });
  if (d) diffs.push(d);
  const projection = read(diffs, "buildSessionProjection()", () => sm.buildSessionProjection());
  const shape = (p: typeof projection | typeof want) =>
    p && {
      entries: p.entries.map((e) => ({ id: e.sourceEntry?.id, messages: e.messages })),
      messages: p.messages,
      thinkingLevel: p.thinkingLevel,
      model: p.model,
    };
  const dp = describeDifference("buildSessionProjection()", shape(projection), shape(want));
  if (dp) diffs.push(dp);
  const entries = ids(read(diffs, "buildContextEntries()", () => sm.buildContextEntries()));
  const wantEntries = ids(want.entries.map((e) => e.sourceEntry));
  if (entries !== wantEntries)
    diffs.push(`buildContextEntries(): ${entries}, expected ${wantEntries}`);
}

function comparePerId(diffs: string[], model: SessionModel, sm: SessionManagerLike): void {
  for (const id of [...new Set(model.knownIds), "no-such-entry"]) {
    const entry = read(diffs, `getEntry(${id})`, () => sm.getEntry(id));
    if (orderedJson(entry) !== orderedJson(model.entry(id))) {
      diffs.push(
        `getEntry(${id}): ${clip(orderedJson(entry))}, expected ${clip(orderedJson(model.entry(id)))}`,
      );
    }
    const label = read(diffs, `getLabel(${id})`, () => sm.getLabel(id));
    if (label !== model.labels.get(id)?.label) {
      diffs.push(`getLabel(${id}): ${label}, expected ${model.labels.get(id)?.label}`);
    }
    const children = ids(read(diffs, `getChildren(${id})`, () => sm.getChildren(id)));
    if (children !== ids(model.children(id))) {
      diffs.push(`getChildren(${id}): ${children}, expected ${ids(model.children(id))}`);
    }
    const branch = ids(read(diffs, `getBranch(${id})`, () => sm.getBranch(id)));
    if (branch !== ids(model.branch(id))) {
      diffs.push(`getBranch(${id}): ${branch}, expected ${ids(model.branch(id))}`);
    }
  }
}

/** Every observable difference between `sm` and `model` (empty when they agree). */
export function compareWithModel(
  model: SessionModel,
  sm: SessionManagerLike,
  options: CompareOptions = {},
): string[] {
  const diffs: string[] = [];
  compareEntries(diffs, model, sm);
  compareNavigation(diffs, model, sm);
  compareHeader(diffs, model, sm);
  compareContext(diffs, model, sm);
  if (options.perId !== false) comparePerId(diffs, model, sm);
  return diffs;
}

/** Thrown by a model command when the implementation and the model disagree. */
export class ModelMismatchError extends Error {
  constructor(
    readonly command: string,
    readonly differences: readonly string[],
  ) {
    super(`after ${command}:\n  - ${differences.join("\n  - ")}`);
    this.name = "ModelMismatchError";
  }
}

/** Throws {@link ModelMismatchError} when `sm` and `model` differ. */
export function assertMatchesModel(
  command: string,
  model: SessionModel,
  sm: SessionManagerLike,
  options?: CompareOptions,
): void {
  const diffs = compareWithModel(model, sm, options);
  if (diffs.length > 0) throw new ModelMismatchError(command, diffs);
}
