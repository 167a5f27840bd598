/**
 * HTML escaping for the exported page. Every string that comes from a session file goes
 * through {@link escapeHtml} before it reaches the page, whether it lands in text or in an
 * attribute, so hostile content (`<script>`, quotes, `&`) is shown, never run.
 */

import { escapeHtml as escapeMarkup } from "@pi-sessions/plugins";
import { terminalSafeText } from "../io/terminal-text.js";

/**
 * Escapes text for use in HTML text and in double- or single-quoted attribute values, as the
 * plugins' formatter escapes entries (`& < > " '` as entities). Control characters (but
 * newline and tab) and invisible reordering characters are shown visibly first, as on a
 * terminal (`terminalSafeText`): a page read with `cat` or `less` must not drive the terminal,
 * and a browser shows `␛` where it would otherwise show nothing.
 */
export function escapeHtml(text: string): string {
  return escapeMarkup(terminalSafeText(text));
}

/**
 * An element id derived from an entry id. Entry ids are arbitrary strings in damaged or
 * foreign files, so anything outside a safe set is hex-encoded: the result is a valid id
 * and a valid URL fragment, and two different entry ids never map to the same anchor.
 */
export function entryAnchor(id: string): string {
  let out = "e-";
  for (const ch of id) {
    out += /[A-Za-z0-9-]/.test(ch) ? ch : `_${(ch.codePointAt(0) ?? 0).toString(16)}_`;
  }
  return out;
}
