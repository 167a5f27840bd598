/**
 * The usage-totals projection's name, apart from the projection and its codec, which both use
 * it: a store checking its rules key (the index's `ls --all`) reads the codec's version without
 * loading the projection or core's state code.
 */

/** The name the projection is registered under (`getProjectionState("usage-totals")`). */
export const USAGE_TOTALS_PROJECTION_NAME = "usage-totals";
