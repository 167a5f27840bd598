/**
 * Canonical names for entry ids when two implementations are compared side by side. Entry ids
 * are random in both, so each side keeps a map raw id → canonical name, and values are
 * compared with ids replaced by their canonical names.
 */
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
  pairByPosition(ours: readonly { id?: unknown }[], theirs: readonly { id?: unknown }[]): void {
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
