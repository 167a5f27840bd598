/**
 * Another entry's id as the formatter shows it wherever an entry points at one (a label's
 * target, a compaction's kept entry, a plugin type's `ref`): the id as code (a link in HTML
 * when the entry is on the page) with a hint of what it points at, when that entry is known.
 */
import type { Fmt } from "./format.js";
import { get } from "./text.js";
import type { RenderContext } from "./types.js";

/** `id` as a reference, with its target's role or type as a hint when the entry is known. */
export function referenceTo(fmt: Fmt, ctx: RenderContext, id: unknown): string {
  if (typeof id !== "string") return fmt.inline("(no target)");
  let known: unknown;
  try {
    known = ctx.getEntry(id);
  } catch {
    known = undefined; // A caller's lookup failing only costs the hint.
  }
  const type = get(known, "type");
  const role = get(get(known, "message"), "role");
  const hint = typeof role === "string" ? role : typeof type === "string" ? type : undefined;
  return hint === undefined ? fmt.ref(id) : `${fmt.ref(id)} (${fmt.inline(hint)})`;
}
