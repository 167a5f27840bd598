/**
 * Session ids that stay distinct in a folder however far it shrinks. Generated ids shrink
 * toward one value, so a shrunk folder would give different sessions the same id and a fork
 * its parent's id, which pi never writes (a fork or branched session gets a new id; only a
 * copy of the same file under another folder repeats one). A repeated id is replaced by the
 * same id with its last 12 hex digits counting up from the first free value.
 */
export class SessionIds {
  private readonly used = new Set<string>();

  /** `id` if no file took it yet, else a fresh id of the same shape; either way taken now. */
  claim(id: string): string {
    let fresh = id;
    for (let n = 1; this.used.has(fresh); n++) {
      fresh = `${id.slice(0, -12)}${n.toString(16).padStart(12, "0")}`;
    }
    this.used.add(fresh);
    return fresh;
  }
}
