/** What the session writer's tests share: a header, numbered records, fresh paths, cleanup. */
import { join } from "node:path";
import type { SessionFileWriter } from "../../src/store/session-writer.js";
import { tempDir } from "./helpers.js";

/** A session header line. */
export const HEADER = '{"type":"session","version":3,"id":"s1"}\n';
/** Record `n` (its JSON text, no newline); `n` also sets its length. */
export const record = (n: number): string =>
  `{"type":"custom","id":"e${n}","data":"${"x".repeat(n)}"}`;
/** Record `n` as a file line. */
export const line = (n: number): string => `${record(n)}\n`;

/** A fresh session path in a temp dir. */
export function newPath(): string {
  return join(tempDir(), "2024-12-03T14-00-00-000Z_s1.jsonl");
}

/** Runs `fn` with a writer and always closes it. */
export function using<T>(writer: SessionFileWriter, fn: (w: SessionFileWriter) => T): T {
  try {
    return fn(writer);
  } finally {
    writer.close();
  }
}
