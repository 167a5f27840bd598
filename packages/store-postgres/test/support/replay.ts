/** What two managers replayed, compared: the same session from a file and from PostgreSQL. */
import type { SessionManager } from "@pi-sessions/core";
import { expect } from "vitest";

/** Everything a replay decides: header, entries, leaf, tree, branch and the load's findings. */
export function replayView(sm: SessionManager): unknown {
  return {
    header: sm.getHeader(),
    entries: sm.getEntries(),
    leaf: sm.getLeafId(),
    tree: sm.getTree(),
    branch: sm.getBranch(),
    name: sm.getSessionName(),
    diagnostics: sm
      .getLoadDiagnostics()
      .map(({ kind, line, message }) => ({ kind, line, message })),
  };
}

/** Asserts that the PostgreSQL replay equals the file's. */
export function expectSameReplay(fromFile: SessionManager, fromPg: SessionManager): void {
  expect(replayView(fromPg)).toEqual(replayView(fromFile));
}
