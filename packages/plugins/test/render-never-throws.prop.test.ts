import type { FileEntry } from "@pi-sessions/core";
import {
  createRenderers,
  type RenderFormat,
  renderBranch,
  renderEntry,
  renderTree,
} from "@pi-sessions/plugins";
import { fcOptions, fcRuns } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyEntry } from "./render-arbitraries.js";

const runs = fcRuns(1000);
const listRuns = fcRuns(300);

/** C0 controls other than tab and newline, DEL, and bidi overrides. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them.
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F\u202A-\u202E\u2066-\u2069]/;

const PROBE = "tree-probe";
const TS = "2025-01-01T00:00:00.000Z";
const probeIds = (n: number) => Array.from({ length: n }, (_, i) => `probe-${i}`);

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

describe("renderers never throw (any generated entry)", () => {
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
      fcOptions(1000),
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
        expect(UNSAFE.test(branch)).toBe(false);
        if (entries.length > 0) expect(tree.length).toBeGreaterThan(0);
      }),
      fcOptions(300),
    );
  });

  it(`renderTree shows every record exactly once, whatever the damage (${listRuns} runs)`, () => {
    // Probe entries mixed into random records, with parents anywhere (other probes, the
    // random records' ids, missing ids, themselves: cycles and orphans). Each probe renders
    // a unique token, so a record dropped or drawn twice by the tree walk is seen.
    const probes = createRenderers().withEntryRenderer(PROBE, (e) => `<<${e.id}>>`);
    const probeArb = (n: number, ids: string[]) =>
      fc.array(
        fc.tuple(
          fc.option(fc.constantFrom(...ids, ...probeIds(n), "gone"), { nil: null }),
          fc.nat(),
        ),
        { minLength: n, maxLength: n },
      );
    const arb = fc.array(anyEntry, { maxLength: 15 }).chain((entries) => {
      const ids = entries.flatMap((e) => {
        const id = (e as { id?: unknown } | null)?.id;
        return typeof id === "string" ? [id] : [];
      });
      return fc
        .integer({ min: 1, max: 8 })
        .chain((n) => fc.tuple(fc.constant(entries), probeArb(n, ids)));
    });
    fc.assert(
      fc.property(arb, format, ([entries, probeSpecs], fmt) => {
        const records = [...entries];
        probeSpecs.forEach(([parentId, at], i) => {
          const probe = {
            type: "custom",
            customType: PROBE,
            id: `probe-${i}`,
            parentId,
            timestamp: TS,
          };
          records.splice(at % (records.length + 1), 0, probe);
        });
        const tree = renderTree(records as FileEntry[], { format: fmt, renderers: probes });
        for (let i = 0; i < probeSpecs.length; i++) {
          expect(tree.split(`<<probe-${i}>>`).length - 1).toBe(1);
        }
      }),
      fcOptions(300),
    );
  });
});
