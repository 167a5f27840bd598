/**
 * A warm `/resume` lists settled sessions without copying their message text out of the index:
 * each info reads its `allMessagesText` on first use (index `lazy-text.ts`). pi's picker reads
 * that text only when the user types a search; this runs pi's own search code
 * (`session-selector-search.js`, what the picker calls on every keystroke) over the launcher's
 * listing and over pi's own `listAll`, and they must pick the same sessions in the same order.
 */

import { join } from "node:path";
import type { SessionInfo } from "@pi-sessions/core";
import { REFERENCE_SESSION_MODULE, tempDir } from "@pi-sessions/test-utils";
import { expect, it } from "vitest";
import { applyChange, writeFile } from "./listing-folders.js";

const agent = tempDir("pi-launcher-search-");
process.env.PI_CODING_AGENT_DIR = agent;
process.env.PI_SESSIONS_INDEX = join(agent, "index.sqlite");

/** pi's picker search: `filterAndSortSessions(sessions, query, sortMode, nameFilter)`. */
type Search = (
  sessions: SessionInfo[],
  query: string,
  sortMode: "recent" | "relevance",
  nameFilter: "all",
) => SessionInfo[];

/** Longer than the index's default settle margin (5 s): the files are old enough to settle. */
const SETTLE_WAIT_MS = 5_500;

it("pi's own picker search over the launcher's lazily read texts picks what it picks over pi's listing", async () => {
  const root = join(agent, "sessions");
  let files: string[] = [];
  for (let n = 0; n < 6; n++) {
    files = [
      ...files,
      writeFile(root, { cwd: (n % 2) as 0 | 1, kind: "valid", turns: 2, seed: n + 1 }, n),
    ];
  }
  // Later assistant turns: their words are in no first message, only in the joined text.
  for (let n = 0; n < 4; n++) files = applyChange(root, files, { op: "grow", pick: n }, n);
  await new Promise((done) => setTimeout(done, SETTLE_WAIT_MS));

  const { LauncherSessionManager } = await import(
    "../../src/pi-launcher/launcher-session-manager.js"
  );
  const ref = (await import(REFERENCE_SESSION_MODULE.href)) as {
    SessionManager: { listAll(): Promise<SessionInfo[]> };
  };
  const search = (
    (await import(
      new URL(
        "../modes/interactive/components/session-selector-search.js",
        REFERENCE_SESSION_MODULE,
      ).href
    )) as { filterAndSortSessions: Search }
  ).filterAndSortSessions;

  await LauncherSessionManager.listAll(); // indexes the files and settles their rows
  const ours = await LauncherSessionManager.listAll(); // answered by each file's stat
  const piListed = await ref.SessionManager.listAll();
  expect(ours.map((i) => i.path)).toEqual(piListed.map((i) => i.path));
  // Not copied by the listing: every text is read when the search reads it.
  for (const info of ours) {
    expect(Object.getOwnPropertyDescriptor(info, "allMessagesText")?.get).toBeDefined();
  }

  const paths = (found: SessionInfo[]) => found.map((i) => i.path);
  const queries = [
    "grown",
    "grown 2",
    '"grown 3"',
    "re:grown [13]",
    "question 4.1",
    "nothing-here",
  ];
  for (const query of queries) {
    for (const mode of ["recent", "relevance"] as const) {
      const expected = paths(search(piListed, query, mode, "all"));
      expect(paths(search(ours, query, mode, "all")), `${query} (${mode})`).toEqual(expected);
    }
  }
  // The text-only words were found (the searches did read the texts), the absent one was not.
  expect(search(ours, "grown", "recent", "all")).toHaveLength(4);
  expect(search(ours, "nothing-here", "recent", "all")).toHaveLength(0);
  expect(ours).toEqual(piListed);
}, 60_000);
