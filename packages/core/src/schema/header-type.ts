/**
 * The header's `type` (SPEC §2.2): the one record type that is not an entry. Every reader tells
 * a header from an entry by it, so no entry type may take it (a line of it would be read back
 * as a second header and dropped from the entries, cutting the chain after it).
 */
export const HEADER_TYPE = "session";
