/**
 * Each odd value, asked for alone, is planted where its facts say (the file lists it, and its
 * text or records show it), often enough to matter; unasked, none is listed and no BOM appears.
 *
 * Runs: `FC_RUNS` scales them (defaults in the titles); replay with `FC_SEED` / `FC_PATH`.
 */
import { fcOptions, fcRuns } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type FolderFile,
  HOSTILE_VALUE_NAMES,
  HOSTILE_VALUES,
  type HostileValueName,
  type SessionFolder,
  sessionFolderArb,
  usageSourceOf,
} from "../../src/index.js";

const LONG = 2_000;
const ids = (file: FolderFile) => file.records.map((r) => r.entry);
const COUNTS = ["input", "output", "cacheRead", "cacheWrite", "totalTokens"];

function usages(file: FolderFile) {
  return file.records.flatMap((r) => {
    const s = usageSourceOf(r.entry);
    return s ? [{ entry: r.entry, usage: s.usage }] : [];
  });
}

const timestamps = (file: FolderFile) =>
  file.records.map((r) => r.entry.timestamp).filter((t): t is string => typeof t === "string");

/** Whether `file` shows the value (each check is the value's fact, read back from the file). */
const SHOWS: Record<HostileValueName, (file: FolderFile, folder: SessionFolder) => boolean> = {
  "timestamp-microseconds": (f) => timestamps(f).some((t) => /\.\d{6}Z$/.test(t)),
  "timestamp-offset": (f) =>
    timestamps(f).some((t) => /[+-]\d\d:\d\d$/.test(t) && !Number.isNaN(Date.parse(t))),
  "numeric-strings": (f) =>
    usages(f).some(({ usage }) =>
      COUNTS.some((k) => typeof usage[k] === "string" && /^\d+$/.test(usage[k] as string)),
    ),
  "cost-without-tokens": (f) =>
    usages(f).some(({ usage }) => COUNTS.every((k) => !(k in usage)) && "cost" in usage),
  "zero-and-negative": (f) =>
    usages(f).some(({ usage }) =>
      COUNTS.some((k) => typeof usage[k] === "number" && (usage[k] as number) <= 0),
    ),
  "no-total-tokens": (f) => usages(f).some(({ usage }) => !("totalTokens" in usage)),
  "duplicate-lines": (f) => f.text.split("\n").some((l, i, all) => l !== "" && l === all[i + 1]),
  "line-separators": (f) => f.text.includes("\u2028") && f.text.includes("\u2029"),
  bom: (f) => f.text.startsWith("\uFEFF"),
  "long-lines": (f) => f.text.split("\n").some((l) => l.length >= LONG),
  collisions: (f, folder) =>
    usages(f).some(({ entry, usage }) =>
      folder.files.some(
        (g) =>
          g !== f &&
          usages(g).some(
            (o) =>
              o.entry.id !== entry.id &&
              o.entry.timestamp === entry.timestamp &&
              JSON.stringify(o.usage.totalTokens) === JSON.stringify(usage.totalTokens),
          ),
      ),
    ),
  "entry-id-collisions": (f, folder) =>
    ids(f).some((entry) =>
      folder.files.some(
        (g) => g !== f && ids(g).some((o) => o.id === entry.id && o.timestamp !== entry.timestamp),
      ),
    ),
  "big-integers": (f) =>
    usages(f).some(({ usage }) =>
      COUNTS.some((k) => typeof usage[k] === "number" && (usage[k] as number) > 2 ** 53),
    ) && /\d{16,}/.test(f.text),
  "html-text": (f) => f.text.includes("<script>") && f.text.includes("&lt;b&gt;"),
};

describe("odd values (HOSTILE_VALUES)", () => {
  it("every name has a documented rule", () => {
    expect(HOSTILE_VALUE_NAMES.sort()).toEqual(Object.keys(SHOWS).sort());
    for (const name of HOSTILE_VALUE_NAMES) expect(HOSTILE_VALUES[name].length).toBeGreaterThan(40);
  });

  for (const name of HOSTILE_VALUE_NAMES) {
    it(`${name}: every file listing it shows it (${fcRuns(100)} runs)`, () => {
      let planted = 0;
      const arb = sessionFolderArb({ values: [name], longLineLength: LONG, minSessions: 2 });
      fc.assert(
        fc.property(arb, (folder) => {
          for (const file of folder.files) {
            expect(file.values.every((v) => v === name)).toBe(true);
            if (!file.values.includes(name)) continue;
            planted++;
            expect(SHOWS[name](file, folder), `${name} in ${file.path}`).toBe(true);
          }
          expect(folder.values).toEqual(
            folder.files.some((f) => f.values.length > 0) ? [name] : [],
          );
        }),
        fcOptions(100),
      );
      // Planted in a fair share of folders, not once in a blue moon.
      expect(planted).toBeGreaterThan(fcRuns(100) / 5);
    });
  }

  it(`unasked, no value is listed and no file has a BOM (${fcRuns(200)} runs)`, () => {
    fc.assert(
      fc.property(sessionFolderArb(), (folder) => {
        expect(folder.values).toEqual([]);
        for (const file of folder.files) {
          expect(file.values).toEqual([]);
          expect(file.text.startsWith("\uFEFF")).toBe(false);
        }
      }),
      fcOptions(200),
    );
  });
});
