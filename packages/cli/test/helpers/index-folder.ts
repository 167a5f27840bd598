/**
 * The sessions the index tests read: the corpus plus two hand-made sessions in /home/dev/app
 * (one of them damaged), written as pi writes them.
 */
import { tempDir } from "@pi-sessions/test-utils";
import { copyCorpus, writeSession } from "./fixtures.js";

/** `value` as one JSONL line. */
export const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** A user message entry as pi writes it. */
export function userEntry(id: string, parentId: string | null, text: string, day: number) {
  const timestamp = new Date(Date.UTC(2026, 0, day)).toISOString();
  return line({
    type: "message",
    id,
    parentId,
    timestamp,
    message: { role: "user", content: [{ type: "text", text }], timestamp: Date.parse(timestamp) },
  });
}

/** The corpus plus two hand-made sessions in /home/dev/app and a damaged file. */
export function corpusFolder() {
  const root = tempDir();
  copyCorpus(root);
  const header = (id: string) =>
    line({
      type: "session",
      version: 3,
      id,
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: "/home/dev/app",
    });
  const app = writeSession(
    root,
    "/home/dev/app",
    "a.jsonl",
    header("aaaa1111-0000") + userEntry("u1", null, "the walrus migration plan", 2),
  );
  writeSession(root, "/home/dev/app", "b.jsonl", `${header("bbbb2222-0000")}garbage line\n`);
  return { root, app };
}
