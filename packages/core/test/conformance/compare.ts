/**
 * Normalisation and observation helpers. Entry ids are random in both implementations, so each
 * side keeps a map raw id → canonical name; every observation is turned into a plain JSON value
 * with ids replaced by their canonical names, and the two observations must be equal.
 *
 * Timestamps need no normalisation: the tests freeze the global `Date` (vitest fake timers), and
 * both implementations read the same frozen clock, so entry timestamps, label timestamps and
 * the message timestamps derived from them (ms of the entry timestamp) are compared exactly.
 */
import { isDeepStrictEqual } from "node:util";
import type { SessionEntry, SessionTreeNode } from "@pi-sessions/core";
import { expect } from "vitest";
import type { ManagerApi } from "./reference.js";

/** Keys whose string values are entry ids (at any depth, e.g. `sourceEntry.parentId`). */
const ID_KEYS = new Set(["id", "parentId", "targetId", "fromId", "firstKeptEntryId"]);

/** Canonical names for the entry ids of the two implementations. */
export class IdMap {
  private readonly toCanon = [new Map<string, string>(), new Map<string, string>()] as const;
  private readonly fromCanon = [new Map<string, string>(), new Map<string, string>()] as const;
  /** Canonical names in creation order (targets are picked by index into this list). */
  readonly all: string[] = [];

  /** Records that `ours` and `theirs` name the same entry; returns the canonical name. */
  pair(ours: string, theirs: string, name = `e${this.all.length}`): string {
    const known = this.toCanon[0].get(ours) ?? this.toCanon[1].get(theirs);
    const canon = known ?? name;
    if (!known) this.all.push(canon);
    this.toCanon[0].set(ours, canon);
    this.toCanon[1].set(theirs, canon);
    this.fromCanon[0].set(canon, ours);
    this.fromCanon[1].set(canon, theirs);
    return canon;
  }

  /** Pairs the entries of two entry lists by position (new entries only). */
  pairByPosition(ours: readonly SessionEntry[], theirs: readonly SessionEntry[]): void {
    const n = Math.min(ours.length, theirs.length);
    for (let i = 0; i < n; i++) {
      const a = ours[i]?.id;
      const b = theirs[i]?.id;
      if (typeof a !== "string" || typeof b !== "string") continue;
      if (this.toCanon[0].has(a) || this.toCanon[1].has(b)) continue;
      this.pair(a, b);
    }
  }

  /** The canonical name of a raw id of side 0 (ours) or 1 (reference); unknown ids unchanged. */
  canon(side: 0 | 1, id: unknown): unknown {
    return typeof id === "string" ? (this.toCanon[side].get(id) ?? id) : id;
  }

  /** The raw id of a canonical name on one side (unknown names pass through). */
  raw(side: 0 | 1, canon: string): string {
    return this.fromCanon[side].get(canon) ?? canon;
  }

  /** Replaces mapped raw ids inside an error message by canonical names. */
  message(side: 0 | 1, text: string): string {
    return text.replace(/[0-9a-f]{8}(?:-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?/g, (m) =>
      String(this.canon(side, m)),
    );
  }

  /** A JSON value (undefined-valued keys dropped, NaN → null) with ids made canonical. */
  norm(side: 0 | 1, value: unknown): unknown {
    if (value === undefined) return "<undefined>";
    const walk = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(walk);
      if (v === null || typeof v !== "object") return v;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v))
        out[k] = ID_KEYS.has(k) ? this.canon(side, x) : walk(x);
      return out;
    };
    return walk(JSON.parse(JSON.stringify(value)));
  }
}

/**
 * A tree as a flat preorder list of nodes (canonical id, label, label timestamp, child ids in
 * order). Flat, so a 1,000-deep corpus chain does not overflow a recursive deep-equal.
 */
export function treeShape(map: IdMap, side: 0 | 1, roots: readonly SessionTreeNode[]): unknown[] {
  const out: unknown[] = [{ roots: roots.map((n) => map.canon(side, n.entry.id)) }];
  const stack = [...roots].reverse();
  for (let n = stack.pop(); n; n = stack.pop()) {
    const children = n.children.map((c) => map.canon(side, c.entry.id));
    out.push({
      id: map.canon(side, n.entry.id),
      label: n.label ?? null,
      labelTs: n.labelTimestamp ?? null,
      children,
    });
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as SessionTreeNode);
  }
  return out;
}

/** What the header looks like, without its random id (checked for shape instead). */
function headerShape(sm: ManagerApi): unknown {
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
  sm: ManagerApi,
  map: IdMap,
  side: 0 | 1,
  opts: ObserveOptions = {},
): Record<string, unknown> {
  const ids = (es: readonly SessionEntry[]) => es.map((e) => map.canon(side, e.id));
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
 * Whether `ours` and `theirs` are the same JSON value once ids are made canonical, without
 * copying anything (large corpus contexts make JSON round trips the dominant cost).
 * Undefined-valued keys count as missing, as in JSON; NaN equals NaN. With `ordered`, key
 * order must match too (it does for what lands in the file).
 */
export function sameModuloIds(
  map: IdMap,
  ours: unknown,
  theirs: unknown,
  ordered = false,
  key = "",
): boolean {
  if (ID_KEYS.has(key) && typeof ours === "string" && typeof theirs === "string") {
    return map.canon(0, ours) === map.canon(1, theirs);
  }
  if (ours === theirs) return true;
  if (typeof ours !== "object" || typeof theirs !== "object" || ours === null || theirs === null) {
    return Number.isNaN(ours) && Number.isNaN(theirs);
  }
  if (Array.isArray(ours) !== Array.isArray(theirs)) return false;
  if (Array.isArray(ours) && Array.isArray(theirs)) {
    return (
      ours.length === theirs.length &&
      ours.every((v, i) => sameModuloIds(map, v, theirs[i], ordered))
    );
  }
  const a = ours as Record<string, unknown>;
  const b = theirs as Record<string, unknown>;
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);
  const [ka, kb] = [keys(a), keys(b)];
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k, i) =>
      (!ordered || kb[i] === k) &&
      Object.hasOwn(b, k) &&
      sameModuloIds(map, a[k], b[k], ordered, k),
  );
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

const clip = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 600 ? `${s.slice(0, 600)}…` : s;
};

/**
 * Asserts two observations are equal; cheap deep-equal first. On mismatch: vitest's diff for
 * small values, the path of the first difference (ours vs reference) for large ones.
 */
export function expectSame(ours: unknown, theirs: unknown, context: string): void {
  if (isDeepStrictEqual(ours, theirs)) return;
  const d = firstDifference(ours, theirs);
  if ((JSON.stringify(ours)?.length ?? 0) < 20_000)
    expect(ours, `${context} (first at ${d?.[0]})`).toStrictEqual(theirs);
  throw new Error(
    `${context}: first difference at ${d?.[0]}\n  ours:      ${clip(d?.[1])}\n  reference: ${clip(d?.[2])}`,
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
