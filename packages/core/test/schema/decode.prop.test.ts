/**
 * Properties of the decoders over arbitrary JSON: they never throw, a success returns the input
 * itself, and the codecs' `is` agrees with their `decode`.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeEntry, decodeRecord, type SchemaIssue } from "@pi-sessions/core";
import { CORPUS_DIR, fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import { describe, expect, it } from "vitest";
import {
  CONTENT_BLOCK_CODECS,
  decodeHeader,
  decodeMessage,
  ENTRY_CODECS,
  FileEntryCodec,
  MESSAGE_CODECS,
} from "../core-parts.js";
import { rightOf } from "./fixtures.js";

const PARAMS = fcOptions(1000);
const NUM_RUNS = PARAMS.numRuns;

/** Any JSON object, as a parsed line would be. */
const jsonObject = fc.dictionary(fc.string(), fc.jsonValue()).map(
  // Through JSON so the objects are exactly what JSON.parse produces (no -0, plain prototype).
  (o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>,
);

/** A tag value: mostly a known name, sometimes anything. */
const tag = (known: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...known, "constructor", "__proto__", "future"), weight: 4 },
    { arbitrary: fc.jsonValue(), weight: 1 },
  );

const block = fc
  .record({ type: tag(Object.keys(CONTENT_BLOCK_CODECS)) }, { requiredKeys: [] })
  .chain((b) => jsonObject.map((extra) => ({ ...extra, ...b })));

const message = fc
  .record(
    {
      role: tag(Object.keys(MESSAGE_CODECS)),
      content: fc.oneof(fc.string(), fc.array(fc.oneof(block, fc.jsonValue()), { maxLength: 4 })),
      timestamp: fc.oneof(fc.nat(), fc.jsonValue()),
    },
    { requiredKeys: [] },
  )
  .chain((m) => jsonObject.map((extra) => ({ ...extra, ...m })));

/** Objects shaped like entries, so decoding gets past the first checks. */
const entryLike = fc
  .record(
    {
      type: tag(["session", ...Object.keys(ENTRY_CODECS)]),
      id: fc.oneof(
        fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 8, maxLength: 8 }),
        fc.jsonValue(),
      ),
      parentId: fc.oneof(fc.constant(null), fc.string(), fc.jsonValue()),
      timestamp: fc.oneof(fc.string(), fc.jsonValue()),
      message: fc.oneof(message, fc.jsonValue()),
    },
    { requiredKeys: [] },
  )
  .chain((e) => jsonObject.map((extra) => JSON.parse(JSON.stringify({ ...extra, ...e }))));

/** The real records of a file R1.6 wrote: every entry type with realistic nesting. */
const REAL: unknown[] = readFileSync(join(CORPUS_DIR, "ref-1.6-branched.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line));

/** Every path to a value inside `u` (object keys and array indices). */
function pathsOf(u: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof u !== "object" || u === null) return [];
  const keys: (string | number)[] = Array.isArray(u) ? u.map((_, i) => i) : Object.keys(u);
  return keys.flatMap((k) => {
    const path = [...prefix, k];
    return [path, ...pathsOf((u as Record<string | number, unknown>)[k], path)];
  });
}

/** A real record with one value somewhere inside replaced by arbitrary JSON, or removed. */
const mutatedReal = fc
  .tuple(fc.constantFrom(...REAL), fc.nat(), fc.option(fc.jsonValue(), { nil: undefined }))
  .map(([record, n, value]) => {
    const copy = structuredClone(record) as Record<string | number, unknown>;
    const paths = pathsOf(copy);
    const path = paths[n % paths.length] ?? [];
    let parent = copy;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const last = path[path.length - 1];
    if (last !== undefined) {
      if (value === undefined && !Array.isArray(parent)) delete parent[last];
      else parent[last] = value ?? null;
    }
    return JSON.parse(JSON.stringify(copy)) as unknown;
  });

/** A real record with an unknown field added to one of its objects (or to itself). */
const extendedReal = fc
  .tuple(fc.constantFrom(...REAL), fc.nat(), fc.string(), fc.jsonValue())
  .map(([record, n, key, value]) => {
    const copy = structuredClone(record) as Record<string, unknown>;
    const objects = [
      copy,
      ...pathsOf(copy)
        .map((path) => path.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], copy))
        .filter((o): o is Record<string, unknown> => isObject(o)),
    ];
    const target = objects[n % objects.length] ?? copy;
    // The "x_" prefix keeps the new key away from every field the schema knows.
    target[`x_${key}`] = value;
    return JSON.parse(JSON.stringify(copy)) as unknown;
  });

function isObject(u: unknown): u is Record<string, unknown> {
  return typeof u === "object" && u !== null && !Array.isArray(u);
}

const anyInput = fc.oneof(fc.jsonValue(), jsonObject, entryLike, mutatedReal);

describe("decoders over arbitrary JSON", () => {
  it(`never throw, and a success is the input itself (numRuns ${NUM_RUNS})`, () => {
    fc.assert(
      fc.property(anyInput, (u) => {
        for (const decode of [decodeEntry, decodeRecord, decodeHeader, decodeMessage]) {
          pipe(
            decode(u) as E.Either<SchemaIssue[], unknown>,
            E.match(
              (issues) => expect(issues.length).toBeGreaterThan(0),
              (value) => expect(value).toBe(u),
            ),
          );
        }
      }),
      PARAMS,
    );
  });

  it(`unknown fields added anywhere in a valid record keep it valid and unchanged (numRuns ${NUM_RUNS})`, () => {
    fc.assert(
      fc.property(extendedReal, (u) => {
        const before = JSON.stringify(u);
        expect(rightOf(decodeRecord(u))).toBe(u);
        expect(JSON.stringify(u)).toBe(before);
      }),
      PARAMS,
    );
  });

  it(`issues have string paths and messages (numRuns ${NUM_RUNS})`, () => {
    fc.assert(
      fc.property(entryLike, (u) => {
        const issues = pipe(
          decodeEntry(u),
          E.match(
            (left) => left,
            () => [],
          ),
        );
        for (const issue of issues) {
          expect(typeof issue.path).toBe("string");
          expect(issue.message.length).toBeGreaterThan(0);
        }
      }),
      PARAMS,
    );
  });

  it(`\`is\` agrees with \`decode\` (numRuns ${NUM_RUNS})`, () => {
    fc.assert(
      fc.property(anyInput, (u) => {
        expect(FileEntryCodec.is(u)).toBe(E.isRight(decodeRecord(u)));
      }),
      PARAMS,
    );
  });
});
