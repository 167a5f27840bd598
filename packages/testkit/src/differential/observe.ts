/**
 * What the differential check observes of a manager and how two observations are compared.
 * Everything observable through the read API is turned into a plain value with ids made
 * canonical through an {@link IdMap}; the two sides must be equal. Mismatches throw a
 * {@link DifferentialMismatch} naming the first difference, so no test runner is needed.
 *
 * Timestamps are compared exactly: the caller freezes the clock both implementations read
 * (the differential world's `setClock`), so entry and label timestamps agree.
 */
import { isDeepStrictEqual } from "node:util";
import type { SessionManagerLike, TreeNodeLike } from "../api-calls/manager-api.js";
import { clip as clipText } from "../model/json.js";
import { type IdMap, sameModuloIds } from "./id-map.js";

/** Thrown when the two implementations disagree; the message names the first difference. */
export class DifferentialMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DifferentialMismatch";
  }
}

/**
 * A tree as a flat preorder list of nodes (canonical id, label, label timestamp, child ids in
 * order). Flat, so a 1,000-deep corpus chain does not overflow a recursive deep-equal.
 */
export function treeShape(map: IdMap, side: 0 | 1, roots: readonly object[]): unknown[] {
  const nodes = roots as readonly TreeNodeLike[];
  const out: unknown[] = [{ roots: nodes.map((n) => map.canon(side, n.entry.id)) }];
  const stack = [...nodes].reverse();
  for (let n = stack.pop(); n; n = stack.pop()) {
    const children = n.children.map((c) => map.canon(side, c.entry.id));
    out.push({
      id: map.canon(side, n.entry.id),
      label: n.label ?? null,
      labelTs: n.labelTimestamp ?? null,
      children,
    });
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as TreeNodeLike);
  }
  return out;
}

/** What the header looks like, without its random id (checked for shape instead). */
function headerShape(sm: SessionManagerLike): unknown {
  const h = sm.getHeader() as Record<string, unknown> | null;
  if (!h) return null;
  const { id, ...rest } = JSON.parse(JSON.stringify(h)) as Record<string, unknown>;
  return { keys: Object.keys(h).filter((k) => h[k] !== undefined), id: typeof id, ...rest };
}

/** Options for {@link observe}. */
export interface ObserveOptions {
  /** Also query every known id (getEntry, getLabel, getChildren, getBranch). */
  perId?: boolean;
}

/**
 * Everything observable through the read API. Values are raw (compared modulo ids by
 * {@link expectSameView}); id lists and the tree are already canonical.
 */
export function observe(
  manager: object,
  map: IdMap,
  side: 0 | 1,
  opts: ObserveOptions = {},
): Record<string, unknown> {
  const sm = manager as SessionManagerLike;
  const ids = (es: readonly { id: string }[]) => es.map((e) => map.canon(side, e.id));
  const view: Record<string, unknown> = {
    header: headerShape(sm),
    sessionIdIsUuid: /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(
      sm.getSessionId(),
    ),
    cwd: sm.getCwd(),
    sessionDir: sm.getSessionDir(),
    sessionFile: sm.getSessionFile() ?? null,
    persisted: sm.isPersisted(),
    entries: sm.getEntries(),
    count: sm.getEntryCount(),
    leaf: map.canon(side, sm.getLeafId()),
    leafEntry: sm.getLeafEntry() ?? null,
    branch: ids(sm.getBranch()),
    tree: treeShape(map, side, sm.getTree()),
    name: sm.getSessionName() ?? null,
    context: sm.buildSessionContext(),
    projection: sm.buildSessionProjection(),
    contextEntries: ids(sm.buildContextEntries()),
  };
  if (opts.perId) {
    view.perId = map.all.map((c) => {
      const raw = map.raw(side, c);
      return {
        canon: c,
        entry: sm.getEntry(raw) ?? null,
        label: sm.getLabel(raw) ?? null,
        children: ids(sm.getChildren(raw)),
        branch: ids(sm.getBranch(raw)),
      };
    });
  }
  return view;
}

/**
 * Asserts two {@link observe} views agree: entries by JSON value *and* key order, the rest by
 * JSON value, ids compared through the map. Fast path without copies; on mismatch both views
 * are normalised (entries as JSON lines) and diffed.
 */
export function expectSameView(
  map: IdMap,
  ours: Record<string, unknown>,
  theirs: Record<string, unknown>,
  context: string,
): void {
  const { entries: ea, ...ra } = ours;
  const { entries: eb, ...rb } = theirs;
  if (sameModuloIds(map, ea, eb, true) && sameModuloIds(map, ra, rb)) return;
  const lines = (side: 0 | 1, es: unknown) =>
    (es as unknown[]).map((e) => JSON.stringify(map.norm(side, e)));
  const view = (side: 0 | 1, rest: unknown, es: unknown) => ({
    lines: lines(side, es),
    ...(map.norm(side, rest) as object),
  });
  expectSame(view(0, ra, ea), view(1, rb, eb), context);
}

/** Like {@link expectSame} for raw values: compared modulo ids, normalised only to show a diff. */
export function expectSameModuloIds(
  map: IdMap,
  ours: unknown,
  theirs: unknown,
  context: string,
): void {
  if (sameModuloIds(map, ours, theirs)) return;
  expectSame(map.norm(0, ours), map.norm(1, theirs), context);
}

/** The path of the first difference between two JSON values, with both values there. */
function firstDifference(
  a: unknown,
  b: unknown,
  path = "$",
): [string, unknown, unknown] | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null)
    return [path, a, b];
  if (Array.isArray(a) !== Array.isArray(b)) return [path, a, b];
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
    const d = firstDifference(ra[k], rb[k], `${path}.${k}`);
    if (d) return d;
  }
  return [path, a, b];
}

const clip = (v: unknown): string => clipText(JSON.stringify(v) ?? String(v), 600);

/**
 * Asserts two observations are equal (a cheap deep-equal first); on mismatch throws with the
 * path of the first difference and both values there, plus both whole values when small.
 */
export function expectSame(ours: unknown, theirs: unknown, context: string): void {
  if (isDeepStrictEqual(ours, theirs)) return;
  const d = firstDifference(ours, theirs);
  const small = (JSON.stringify(ours)?.length ?? 0) < 20_000;
  const whole = small
    ? `\n  ours (whole):      ${JSON.stringify(ours)}\n  reference (whole): ${JSON.stringify(theirs)}`
    : "";
  throw new DifferentialMismatch(
    `${context}: first difference at ${d?.[0]}\n  ours:      ${clip(d?.[1])}\n  reference: ${clip(d?.[2])}${whole}`,
  );
}

/** The outcome of calling one API method: its return value or the thrown message. */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

/** Calls `f`, capturing a thrown error's message instead of propagating it. */
export function attempt(f: () => unknown): Outcome {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : `non-Error thrown: ${String(e)}` };
  }
}
