/**
 * @pi-sessions/core/internal — the building blocks under the public API, for this
 * repository's CLI, testkit and tests, and for tools that need the format's parts one by one
 * (the document parser, migration, the entry log, the writer and lock, listing internals).
 * Stable within a release, not promised across releases the way `@pi-sessions/core` is.
 *
 * @packageDocumentation
 */

// Every module below is exported whole: this entry is the toolbox, and the committed API report
// (`api/core-internal.api.md`) shows in review what a change adds to it.
export * from "./bus/session-events.js";
export * from "./env/env.js";
export * from "./env/ids.js";
export * from "./env/paths.js";
export * from "./format/column-load.js";
export * from "./format/json-scan.js";
export * from "./format/load-text.js";
export * from "./format/migrate.js";
export * from "./format/parse.js";
export * from "./format/record-rules.js";
export * from "./format/serialize.js";
export * from "./merge/canonical-json.js";
export * from "./merge/chain-order.js";
export * from "./merge/id-collisions.js";
export * from "./merge/legacy-ids.js";
export * from "./merge/merge-sessions.js";
export * from "./merge/session-copy.js";
export * from "./projections/builtins.js";
export * from "./projections/context.js";
export * from "./projections/context-cache.js";
export * from "./projections/draft-projection.js";
export * from "./projections/labels.js";
export { resolve as resolveLabels } from "./projections/labels.js";
export * from "./projections/session-name.js";
export * from "./schema/codecs/combinators.js";
export * from "./schema/codecs/content-blocks.js";
export * from "./schema/codecs/decode.js";
export * from "./schema/codecs/entries.js";
export * from "./schema/codecs/header.js";
export * from "./schema/codecs/issues.js";
export * from "./schema/codecs/messages.js";
export * from "./schema/codecs/usage.js";
export * from "./schema/entry-references.js";
export * from "./schema/entry-types.js";
export * from "./schema/types.js";
export * from "./state/diagnostics.js";
export * from "./state/entry-handle.js";
export * from "./state/entry-log.js";
export * from "./state/projection.js";
export * from "./state/session-state.js";
export * from "./state/tree.js";
export * from "./state/vec.js";
export * from "./store/atomic-write.js";
export * from "./store/delete.js";
export * from "./store/discovery.js";
export * from "./store/file-lines.js";
export * from "./store/listing.js";
export * from "./store/listing-answer.js";
export * from "./store/listing-cache.js";
export * from "./store/listing-folds.js";
export * from "./store/lock.js";
export * from "./store/memory-store.js";
export * from "./store/paths.js";
export * from "./store/queued-sink.js";
export * from "./store/read-chunks.js";
export * from "./store/read-session.js";
export * from "./store/regular-file.js";
export * from "./store/session-files.js";
export * from "./store/session-info.js";
export * from "./store/session-scan.js";
export * from "./store/session-shape.js";
export * from "./store/session-store.js";
export * from "./store/session-writer.js";
export * from "./store/store-fs.js";
