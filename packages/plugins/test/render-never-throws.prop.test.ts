import type { FileEntry } from "@pi-sessions/core";
import {
  createRenderers,
  type RenderFormat,
  renderBranch,
  renderEntry,
  renderTree,
} from "@pi-sessions/plugins";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyEntry } from "./render-arbitraries.js";

const runs = Number(process.env.FC_RUNS ?? 1000);
const listRuns = Number(process.env.FC_RUNS ?? 300);
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;

/** C0 controls other than tab and newline, DEL, and bidi overrides. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them.
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F\u202A-\u202E\u2066-\u2069]/;

/** Custom renderers that misbehave in every way a plugin could. */
const hostile = createRenderers()
  .withEntryRenderer("note", () => {
    throw new Error("boom");
  })
  .withEntryRenderer("widget", () => 42 as unknown as string)
  .withMessageRenderer("note", () => {
    throw Object.create(null);
  })
  .withMessageRenderer("widget", () => undefined);

const format = fc.constantFrom<RenderFormat>("markdown", "text");

describe("renderers never throw (issue 4: any generated entry)", () => {
  it(`renderEntry returns a string free of control characters for any record (${runs} runs)`, () => {
    fc.assert(
      fc.property(anyEntry, format, fc.boolean(), (entry, fmt, withHostile) => {
        const out = renderEntry(entry, {
          format: fmt,
          renderers: withHostile ? hostile : undefined,
          getLabel: (id) => (id === "a" ? "lbl\u001b[2J" : undefined),
        });
        expect(typeof out).toBe("string");
        expect(out.length).toBeGreaterThan(0);
        expect(UNSAFE.test(out)).toBe(false);
      }),
      { numRuns: runs, seed },
    );
  });

  it(`renderBranch and renderTree return strings for any list of records (${listRuns} runs)`, () => {
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 25 }), format, (entries, fmt) => {
        const records = entries as FileEntry[];
        const tree = renderTree(records, { format: fmt, renderers: hostile });
        const branch = renderBranch(records, undefined, { format: fmt, renderers: hostile });
        expect(typeof tree).toBe("string");
        expect(typeof branch).toBe("string");
        expect(UNSAFE.test(tree)).toBe(false);
        // Every record shows up somewhere in the tree (nothing is silently dropped).
        if (entries.length > 0) expect(tree.length).toBeGreaterThan(0);
      }),
      { numRuns: listRuns, seed },
    );
  });
});
