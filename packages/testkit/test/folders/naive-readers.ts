/**
 * Readers with the bug the checkReader tests catch: `sumEverything` counts every usage record
 * of every file under a sessions root, so fork and copy records count twice.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type SessionFolder, usageOracle, usageSourceOf } from "../../src/index.js";

/** Every usage record of every file under `root`, copies included. */
export function sumEverything(root: string): number {
  let records = 0;
  for (const dir of readdirSync(root)) {
    for (const name of readdirSync(join(root, dir))) {
      for (const line of readFileSync(join(root, dir, name), "utf8").split("\n")) {
        try {
          if (usageSourceOf(JSON.parse(line))) records++;
        } catch {
          // not a record
        }
      }
    }
  }
  return records;
}

/** The property: as many records as the oracle's folder total. */
export const sameRecordCount = (records: number, folder: SessionFolder): boolean =>
  records === usageOracle(folder).total.records;
