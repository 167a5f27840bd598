import { nowIso } from "../env/env.js";
import { generateEntryId } from "../env/ids.js";
import { jsonClone } from "../format/json-clone.js";
import type { SessionEntry } from "../schema/types.js";
import { lineAt } from "../state/entry-log.js";
import * as sessionState from "../state/session-state.js";
import { isForeignRefusal } from "../store/refusal.js";
import type { EntryBase } from "./entry-builders.js";
import { EntryRejectedError } from "./entry-validation.js";
import type { ManagedSession } from "./managed-session.js";

/**
 * The one append path (SPEC §5.1), after `catchUp` (run earlier by writes that read the state).
 * The entry is serialised once: that line is what the store writes and what the log keeps, its
 * body decoded only when something reads it, so memory equals disk (SPEC §0.1 item 3) and the
 * caller keeps no reference into our state (W20). With validators (strict mode) the line is
 * decoded at once for them. `arg` spares the hot append a closure; a parent other than the leaf
 * (`null`: a new root) moves the leaf there first.
 */
export function appendEntry<E extends SessionEntry, A = undefined>(
  session: ManagedSession,
  make: (b: EntryBase, arg: A) => E,
  arg?: A,
  parentOrLeaf?: string | null,
): string {
  session.catchUp();
  const parentId = parentOrLeaf === undefined ? session.state.leafId : parentOrLeaf;
  const id = generateEntryId(session.env, session.idTaken);
  const base = { id, parentId, timestamp: nowIso(session.env) };
  const made = make(base, arg as A);
  const line = JSON.stringify(made);
  const before = session.state;
  if (session.validators.length === 0) {
    const role =
      made.type === "message"
        ? (made as { message?: { role?: unknown } }).message?.role
        : undefined;
    const head = {
      id,
      parentId,
      type: made.type,
      role: typeof role === "string" ? role : undefined,
    };
    session.state = sessionState.foldLine(before, head, line);
  } else {
    const decoded = JSON.parse(line) as E;
    for (const validator of session.validators) {
      const rejection = validator(decoded);
      if (rejection !== undefined) throw new EntryRejectedError(decoded, rejection);
    }
    session.state = sessionState.foldEntry(before, decoded);
  }
  try {
    persist(session, line);
  } catch (error) {
    const after = session.state;
    session.state = before;
    if (session.whenRefused !== "fork" || !isForeignRefusal(error)) throw error;
    forkRefused(session, error);
    session.state = { ...after, header: session.state.header };
    try {
      persist(session, line);
    } catch (again) {
      session.state = { ...before, header: session.state.header };
      throw again;
    }
  }
  // Committed: only now may handlers see it (a leaf move made for this append first).
  session.emitLeafMoved(before.leafId, parentId);
  if (session.bus.wants("entryAppended")) {
    const entry = session.appended();
    session.bus.emit("entryAppended", () => ({ entry, leafId: id }));
  }
  return id;
}

/** Hands the entry just appended to the sink: as its line when the sink takes lines. */
function persist(session: ManagedSession, line: string): void {
  const sink = session.sink;
  if (sink.appendLine) sink.appendLine(line, session.appended, session.content);
  else sink.append(session.appended(), session.content);
}

/**
 * Continues in a new session forked from the current one, written at once (SPEC L3): another
 * process refused our append to this file. Every entry is copied as its line (no decoding),
 * `parentSession` names the refused file, the state is the same but for the header.
 */
function forkRefused(session: ManagedSession, refusal: Error): void {
  const from = session.sink.location;
  session.switchSession(
    "forked",
    () => {
      const header = jsonClone(session.newHeader(undefined, from));
      const log = session.state.log;
      const lines = [JSON.stringify(header)];
      for (let pos = 0; pos < log.length; pos++) lines.push(lineAt(log, pos));
      const store = session.store;
      const sink = store.createFromLines
        ? store.createFromLines(header, lines)
        : store.create(header, sessionState.entriesOf(session.state), "now");
      session.replaceSink(sink);
      session.state = { ...session.state, header };
      session.loaded = { diagnostics: [] };
    },
    refusal,
  );
}
