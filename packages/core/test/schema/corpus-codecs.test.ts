/**
 * The schema codecs against the real session files in `fixtures/corpus/`.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeEntry, decodeRecord } from "@pi-sessions/core";
import { CORPUS_DIR } from "@pi-sessions/test-utils";
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import { describe, expect, it } from "vitest";
import {
  AgentMessageCodec,
  decodeHeader,
  decodeMessage,
  FileEntryCodec,
  MESSAGE_CODECS,
} from "../core-parts.js";
import { isBuiltinEntry, issueLines, issues, rightOf } from "./fixtures.js";

/** The parsed records of a corpus file (every line of these files is valid JSON). */
function records(name: string): Record<string, unknown>[] {
  return readFileSync(join(CORPUS_DIR, name), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("ref-1.6-branched.jsonl (v3, written by R1.6)", () => {
  const all = records("ref-1.6-branched.jsonl");

  it("has a header that decodes as a header", () => {
    const result = decodeHeader(all[0]);
    expect(issueLines(result)).toEqual([]);
  });

  it.each(all.map((r, i) => [i + 1, r.type, r] as const))(
    "line %i (%s) decodes with no issues, as the same object",
    (_line, _type, record) => {
      const result = decodeRecord(record);
      expect(issueLines(result)).toEqual([]);
      expect(rightOf(result)).toBe(record);
      expect(FileEntryCodec.is(record)).toBe(true);
    },
  );

  it("decodes every entry after the header as a known entry type", () => {
    for (const record of all.slice(1)) {
      const result = decodeEntry(record);
      expect(issueLines(result)).toEqual([]);
      expect(pipe(result, E.exists(isBuiltinEntry))).toBe(true);
    }
  });
});

describe.each(["large-session.jsonl", "before-compaction.jsonl"])(
  "%s (v1, written by pi)",
  (file) => {
    const all = records(file);
    const messages = all.flatMap((r) => (r.type === "message" ? [r.message] : []));

    it("has messages of known roles only", () => {
      expect(messages.length).toBeGreaterThan(800);
      for (const m of messages) {
        expect(Object.keys(MESSAGE_CODECS)).toContain((m as { role: string }).role);
      }
    });

    it("decodes every message with the message codec, as the same object", () => {
      const failures = messages.flatMap((m, i) => {
        const result = decodeMessage(m);
        if (
          pipe(
            result,
            E.exists((value) => value !== m),
          )
        )
          return [`#${i}: not the same object`];
        return issueLines(result).map((issue) => `#${i}: ${issue}`);
      });
      expect(failures).toEqual([]);
      expect(messages.every((m) => AgentMessageCodec.is(m))).toBe(true);
    });

    it("decodes its header (no version, v1 fields kept)", () => {
      const header = all[0];
      const result = decodeHeader(header);
      expect(issueLines(result)).toEqual([]);
      expect(rightOf(result)).toBe(header);
    });

    it("reports the missing id and parentId of un-migrated entries", () => {
      const result = decodeEntry(all[1]);
      expect(issues(result).map((i) => i.path)).toEqual(["id", "parentId"]);
    });

    it("decodes every record once ids are assigned as migration would", () => {
      let previous: string | null = null;
      const failures: string[] = [];
      all.slice(1).forEach((record, i) => {
        const id = i.toString(16).padStart(8, "0");
        const entry = { ...record, id, parentId: previous };
        previous = id;
        // v1 compactions point by index; migration turns that into firstKeptEntryId (or drops it).
        delete (entry as { firstKeptEntryIndex?: unknown }).firstKeptEntryIndex;
        for (const issue of issueLines(decodeEntry(entry)))
          failures.push(`line ${i + 2}: ${issue}`);
      });
      expect(failures).toEqual([]);
    });
  },
);
