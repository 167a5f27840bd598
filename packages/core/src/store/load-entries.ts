import { readFileSync } from "node:fs";
import { parseSessionEntries } from "../format/parse.js";
import { isValidHeader } from "../format/record-rules.js";
import type { FileEntry } from "../schema/types.js";

/**
 * The records of a session file as the reference's `loadEntriesFromFile` gives them (SPEC
 * §8.6): every parsed object record, header first, unmigrated; `[]` unless the first is a
 * valid header. Never writes (W13: the reference would append a missing final newline).
 */
export function loadEntriesFromFile(filePath: string): FileEntry[] {
  let text: string;
  try {
    text = readFileSync(filePath, "utf8");
  } catch {
    return [];
  }
  const records = parseSessionEntries(text);
  return records.length > 0 && isValidHeader(records[0]) ? records : [];
}
