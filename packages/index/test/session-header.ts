/** The header of the hand-written session files of the index's tests. */
export const HEADER = {
  type: "session",
  version: 3,
  id: "s1",
  timestamp: "2026-01-01T00:00:00.000Z",
  cwd: "/w",
} as const;
