/**
 * The law `redact` relies on to keep every byte (SPEC X1): any bytes, read as text with the
 * bytes that are not UTF-8 escaped, are written back as the same bytes; valid UTF-8 reads as
 * Node reads it.
 */
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesOfKeptText, textKeepingBytes } from "../src/redact/raw-bytes-text.js";

const PARAMS = fcOptions(2000);

/** Bytes near UTF-8: valid text with stray, torn and forbidden bytes mixed in. */
const bytesArb = fc
  .array(
    fc.oneof(
      fc.string({ unit: "binary" }).map((s) => Buffer.from(s, "utf8")),
      fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b)),
      fc.constantFrom(
        ...[
          [0xef, 0xbb, 0xbf],
          [0xed, 0xa0, 0x80],
          [0xc0, 0x80],
          [0xf4, 0x90, 0x80, 0x80],
          [0xe2, 0x82],
        ].map((b) => Buffer.from(b)),
      ),
    ),
    { maxLength: 12 },
  )
  .map((parts) => Buffer.concat(parts));

describe(`bytes kept through text (numRuns ${PARAMS.numRuns})`, () => {
  it(`any bytes come back unchanged (numRuns ${PARAMS.numRuns})`, () => {
    fc.assert(
      fc.property(bytesArb, (bytes) => {
        expect(Buffer.from(bytesOfKeptText(textKeepingBytes(bytes))).equals(bytes)).toBe(true);
      }),
      PARAMS,
    );
  });

  it(`valid UTF-8 reads as Node reads it and writes back as that string (numRuns ${PARAMS.numRuns})`, () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        const bytes = Buffer.from(`\ufeff${s}`, "utf8");
        const text = textKeepingBytes(bytes);
        expect(text).toBe(bytes.toString("utf8"));
        expect(bytesOfKeptText(text)).toBe(text);
      }),
      PARAMS,
    );
  });
});
