/**
 * Helpers of the file conformance property (files.prop.int.test.ts): a view of a
 * file-backed manager whose paths do not depend on the temp dir or the random session ids,
 * and a normaliser that turns every session file of one side into text that can be compared
 * line by line with the other side's.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import type { JsonObject, SessionManagerLike } from "../../src/internal.js";

/** The members both sides have beyond the shared op surface. */
export type FileManager = SessionManagerLike & {
  newSession(options?: { parentSession?: string }): string | undefined;
};

/** True for the entries that cause the first write (SPEC §6.2): user or assistant messages. */
export function isConversation(e: { type: string; message?: unknown }): boolean {
  if (e.type !== "message") return false;
  const role = (e.message as { role?: unknown } | undefined)?.role;
  return role === "user" || role === "assistant";
}

/**
 * One implementation's manager in its own session dir, with the sessions it created in order
 * (`s0`, `s1`, …). `view` is the manager as the shared op runner sees it: paths come back as
 * `<dir>/<fileTs>_s<k>.jsonl`, the header's `parentSession` likewise, so the two sides compare
 * equal when they behave the same.
 */
export class Side {
  /** Session ids in creation order. */
  readonly sessions: string[] = [];
  /** Real session file paths in creation order. */
  readonly files: string[] = [];
  /**
   * Sessions created by `createBranchedSession` from a session whose file was never written
   * (SPEC W24 [Fix]): the reference records the never-written path as `parentSession`, ours
   * leaves the field out. Only this case is excused from the comparison.
   */
  readonly orphanParent = new Set<string>();
  readonly view: SessionManagerLike;

  constructor(
    readonly sm: FileManager,
    readonly dir: string,
    /**
     * The reference side: its `parentSession` naming a never-written file (W24) is left out of
     * the header view and, after a check, out of the file. Ours must leave it out itself.
     */
    readonly excuseOrphanParent: boolean,
    /** Called before every createBranchedSession call, even one that throws (I5 snapshots). */
    private readonly beforeBranchedSession: () => void = () => {},
  ) {
    this.track();
    const side = this;
    this.view = new Proxy(sm, {
      get(target, key) {
        if (key === "getSessionDir") return () => "<dir>";
        if (key === "getSessionFile") return () => side.canonPath(target.getSessionFile());
        if (key === "getHeader") return () => side.headerView(target.getHeader());
        if (key === "createBranchedSession") {
          return (leafId: string) => {
            const before = target.getSessionFile() as string;
            const pendingSource = !existsSync(before);
            side.beforeBranchedSession();
            const path = target.createBranchedSession(leafId);
            side.track();
            if (pendingSource) side.orphanParent.add(target.getSessionId());
            return side.canonPath(path);
          };
        }
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as SessionManagerLike;
  }

  /** Records the current session (after create, newSession or createBranchedSession). */
  track(): void {
    this.sessions.push(this.sm.getSessionId());
    this.files.push(this.sm.getSessionFile() as string);
  }

  /** A path with the dir replaced by `<dir>` and known session ids by `s<k>`. */
  canonPath(path: string | undefined): string | undefined {
    if (path === undefined) return undefined;
    const inDir = path.startsWith(`${this.dir}/`) ? `<dir>/${basename(path)}` : path;
    return this.sessions.reduce((p, id, k) => p.split(id).join(`s${k}`), inDir);
  }

  /** The header as compared: paths canonical, W24's never-written parent left out. */
  headerView(h: JsonObject | null): JsonObject | null {
    if (!h) return h;
    const copy = { ...h };
    if (this.excuseOrphanParent && this.orphanParent.has(String(h.id))) delete copy.parentSession;
    else if (typeof copy.parentSession === "string")
      copy.parentSession = this.canonPath(copy.parentSession);
    return copy;
  }
}

/** One side's files after normalisation: canonical names and texts, in creation order. */
export interface NormalisedFiles {
  /** Every directory entry's name, ids canonical, sorted. */
  readonly listing: string[];
  /** Per created session: its normalised text, or null when it has no file. */
  readonly texts: (string | null)[];
}

const TOKEN =
  /(?<![0-9a-f])[0-9a-f]{8}(?:-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?(?![0-9a-f])/g;

/**
 * Normalises one side's files: the session dir becomes `<dir>`; every entry id and session id
 * (known from the files' `id` fields, the entries created and the sessions) becomes `e0, e1, …`
 * — session ids first in creation order, then entry ids by first appearance, scanning the files
 * in creation order and each line left to right (ids in `parentSession` paths, `sourceEntry`
 * copies and file names included). Everything else — key order, spelling, timestamps (frozen
 * clock) — stays as written. With `excuseOrphanParent` (the reference), W24 headers lose their
 * `parentSession` after a check that it names a file that does not exist.
 */
export function normaliseFiles(
  side: Side,
  /** Entry ids the manager created that may be named in a file but not written (unflushed). */
  created: Iterable<string>,
): NormalisedFiles {
  const raw = side.files.map((f) => (existsSync(f) ? readFileSync(f, "utf8") : null));
  const known = new Set([...side.sessions, ...created]);
  for (const text of raw) {
    for (const line of text?.split("\n") ?? []) {
      if (line === "") continue;
      const id = (JSON.parse(line) as { id?: unknown }).id;
      if (typeof id === "string") known.add(id);
    }
  }
  const canon = new Map<string, string>();
  const name = (id: string) => {
    const c = canon.get(id) ?? `e${canon.size}`;
    canon.set(id, c);
    return c;
  };
  // Session ids first, in creation order (sessions without a file take their number too).
  for (const id of side.sessions) name(id);
  const norm = (s: string) =>
    s
      .split(side.dir)
      .join("<dir>")
      .replace(TOKEN, (m) => (known.has(m) ? name(m) : m));
  const texts = raw.map((text, i) => {
    if (text === null) return null;
    const lines = text.split("\n");
    const header = JSON.parse(lines[0] as string) as Record<string, unknown>;
    if (side.excuseOrphanParent && side.orphanParent.has(side.sessions[i] as string)) {
      // W24 [Fix]: the reference names a parent file that was never written; ours omits it.
      const parent = header.parentSession;
      if (typeof parent !== "string" || existsSync(parent)) {
        throw new Error(`W24: expected a never-written parentSession, got ${String(parent)}`);
      }
      delete header.parentSession;
      lines[0] = JSON.stringify(header);
    }
    return lines.map(norm).join("\n");
  });
  const listing = readdirSync(side.dir).map(norm).sort();
  return { listing, texts };
}

/** Whatever in a dir is not a `.jsonl` file (lock files, temporary files). */
export function strayFiles(dir: string): string[] {
  return readdirSync(dir).filter((f) => !f.endsWith(".jsonl"));
}
