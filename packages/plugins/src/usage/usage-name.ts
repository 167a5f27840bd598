/**
 * The usage-totals rule's name and version, apart from the projection (which declares both from
 * here): a store checking its rules key (the index's `ls --all`) reads the version without
 * loading the projection, core's state code or the entry codecs.
 */

/** The name the projection is registered under (`getProjectionState("usage-totals")`). */
export const USAGE_TOTALS_PROJECTION_NAME = "usage-totals";

/**
 * The name and rule version the {@link usageTotals} projection declares, the one place the
 * version is written. Bump `version` with any change to what the projection sums or keeps (or
 * to its encoding): every state saved under another version is refolded, and the fingerprint
 * test (`test/usage-version.test.ts`) fails until it is bumped.
 */
export const usageTotalsRule: { readonly name: string; readonly version: number } = {
  name: USAGE_TOTALS_PROJECTION_NAME,
  version: 1,
};
