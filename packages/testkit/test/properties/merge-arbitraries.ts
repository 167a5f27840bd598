/**
 * The diverged copies the merge laws run on (SPEC §14 M1–M3): a mix of three generators, so
 * that every run count covers what can go wrong — the default (mostly linear conversations,
 * forced id collisions with entries referring to the colliding ones), skewed clocks on bushy
 * multi-root trees with unknown fields (the order of lines across machines whose clocks
 * disagree), and copies made mostly of labels, names, compactions and context edits (last-wins
 * conflicts between the machines). `merge-coverage.test.ts` checks that the mix produces each
 * case often enough.
 */

import { type DivergedCopies, type DivergedOptions, divergedCopiesArb } from "@pi-sessions/testkit";
import fc from "fast-check";

/** The variants, each with the options shared by all (copies, most new entries per copy). */
function mixed(shared: DivergedOptions): fc.Arbitrary<DivergedCopies> {
  return fc.oneof(
    divergedCopiesArb({ shape: "any", unknownTypes: true, ...shared }),
    divergedCopiesArb({
      shape: "bushy",
      clockSkew: true,
      multiRoot: true,
      unknownFields: true,
      unknownTypes: true,
      ...shared,
    }),
    divergedCopiesArb({
      shape: "any",
      // No plain messages: custom messages are what context edits target here.
      kinds: [
        "custom_message",
        "label",
        "session_info",
        "compaction",
        "context_edit",
        "branch_summary",
      ],
      ...shared,
    }),
  );
}

/** Two diverged copies of one session. */
export const divergedPairArb: fc.Arbitrary<DivergedCopies> = mixed({});

/** Three diverged copies of one session (for associativity). */
export const divergedTripleArb: fc.Arbitrary<DivergedCopies> = mixed({ copies: 3, maxNews: 6 });
