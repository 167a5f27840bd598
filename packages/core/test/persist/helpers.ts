import { readdirSync, readFileSync } from "node:fs";

// One temp-dir helper for all file tests: removed after each test.
export { tempDir } from "../store/helpers.js";

/** The `.jsonl` files of a directory, sorted. */
export function jsonlFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
}

/** The JSON records of a file. */
export function fileRecords(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

// The message fixtures the in-memory tests use.
export { assistant, user } from "../manager/fixtures.js";
