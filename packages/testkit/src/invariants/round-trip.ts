/**
 * I5, round trip: write → reopen gives equal entries, tree, labels, name and context; for
 * files we wrote, `serialize(parse(text)) === text`.
 */
import { parseJsonl, serializeDocument } from "@pi-sessions/core/internal";
import type { SessionHarness } from "./harness.js";
import { jsonEqual, preview } from "./json.js";
import {
  type AppendableSession,
  guard,
  type SessionView,
  type TreeNodeView,
  type Violation,
  violation,
} from "./types.js";

/** A line-level document format: how a tool parses a file and writes it back. */
export interface DocumentFormat<D = unknown> {
  parse(text: string): D;
  serialize(doc: D): string;
}

/** Core's format: `parseJsonl` and `serializeDocument`. */
export const CORE_DOCUMENT_FORMAT: DocumentFormat<ReturnType<typeof parseJsonl>> = {
  parse: parseJsonl,
  serialize: serializeDocument,
};

/** A tree reduced to what a reader sees: ids, labels and children. */
function treeShape(nodes: readonly TreeNodeView[]): unknown[] {
  // Iterative: deep linear sessions must not overflow the stack.
  const root: unknown[] = [];
  const stack: [readonly TreeNodeView[], unknown[]][] = [[nodes, root]];
  while (stack.length > 0) {
    const [list, into] = stack.pop() as [readonly TreeNodeView[], unknown[]];
    for (const n of list) {
      const children: unknown[] = [];
      into.push([n.entry.id, n.label ?? null, n.labelTimestamp ?? null, children]);
      stack.push([n.children, children]);
    }
  }
  return root;
}

/**
 * I5 on two live sessions: `reopened` (loaded from what `original` wrote) has the same header,
 * entries, tree, labels and name; its leaf is the last entry (SPEC §6.5 step 7); and where the
 * leaves agree, the same context.
 */
export function checkI5ReopenEquals(original: SessionView, reopened: SessionView): Violation[] {
  return guard("I5", (out) => {
    if (!jsonEqual(original.getHeader(), reopened.getHeader())) {
      out.push(violation("I5", `header changed: ${preview(reopened.getHeader())}`));
    }
    const a = original.getEntries();
    const b = reopened.getEntries();
    if (a.length !== b.length) out.push(violation("I5", `${a.length} entries became ${b.length}`));
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (!jsonEqual(a[i], b[i])) {
        out.push(
          violation("I5", `entry ${i + 1} changed: ${preview(b[i])}`, { entryId: a[i]?.id }),
        );
        break;
      }
    }
    if (!jsonEqual(treeShape(original.getTree()), treeShape(reopened.getTree()))) {
      out.push(violation("I5", "the tree (ids, labels, children) changed"));
    }
    if (original.getLabel && reopened.getLabel) {
      for (const e of a) {
        if (original.getLabel(e.id) !== reopened.getLabel(e.id)) {
          out.push(violation("I5", "the label changed", { entryId: e.id }));
        }
      }
    }
    if (original.getSessionName?.() !== reopened.getSessionName?.()) {
      out.push(violation("I5", `session name ${JSON.stringify(reopened.getSessionName?.())}`));
    }
    const leaf = reopened.getLeafId();
    const last = b[b.length - 1]?.id ?? null;
    if (leaf !== last) {
      out.push(violation("I5", `after reopening the leaf is ${leaf}, not the last entry ${last}`));
    }
    if (
      original.getLeafId() === leaf &&
      original.buildSessionContext &&
      reopened.buildSessionContext &&
      !jsonEqual(original.buildSessionContext(), reopened.buildSessionContext())
    ) {
      out.push(violation("I5", "the context at the same leaf changed"));
    }
  });
}

/** I5 on text: for a file we wrote, `format.serialize(format.parse(text)) === text`. */
export function checkI5TextRoundTrip<D>(
  text: string,
  format: DocumentFormat<D> = CORE_DOCUMENT_FORMAT as unknown as DocumentFormat<D>,
): Violation[] {
  return guard("I5", (out) => {
    const again = format.serialize(format.parse(text));
    if (again === text) return;
    const a = text.split("\n");
    const b = again.split("\n");
    const i = a.findIndex((line, k) => line !== b[k]);
    const line = (i < 0 ? Math.min(a.length, b.length) : i) + 1;
    out.push(
      violation("I5", `serialize(parse(text)) differs from the text at line ${line}`, { line }),
    );
  });
}

/**
 * I5 end to end through a harness: write `text` to a file, run `act` (appends, say), reopen
 * the file the implementation wrote, and compare with the live session; the written text must
 * also survive a parse/serialize round trip (core's format unless `format` is given).
 */
export function checkI5RoundTrip<S extends AppendableSession, D = unknown>(
  harness: SessionHarness<S>,
  text: string,
  act?: (session: S) => void,
  format?: DocumentFormat<D>,
): Violation[] {
  return guard("I5", (out) => {
    if (!harness.withFile) {
      out.push(violation("I5", `harness ${harness.name} cannot write files`));
      return;
    }
    const written = harness.withFile(text, act);
    const reopened = harness.load(written.text);
    out.push(...checkI5ReopenEquals(written.session, reopened));
    out.push(...checkI5TextRoundTrip(written.text, format));
  });
}
