/**
 * The `bookmark` wire type of issue 27's walk, defined once: core's definition (codec, the
 * reference field) and the plugin beside it with how a bookmark reads. Everything else a test
 * does with bookmarks goes through these two values.
 */
import { defineEntryType, entryCodec } from "@pi-sessions/core";
import { definePlugin, wireType } from "@pi-sessions/plugins";
import * as t from "io-ts";

/** `{"type":"bookmark", …, "targetId", "note"}`: a bookmark on another entry. */
export const bookmark = defineEntryType({
  type: "bookmark",
  codec: entryCodec("bookmark", { targetId: t.string, note: t.string }),
  references: ["targetId"],
  searchText: null,
  role: "none",
});

/** The plugin that owns `bookmark`, with its summary line and its description. */
export const bookmarks = definePlugin({
  name: "bookmarks",
  wireTypes: [
    wireType(bookmark, {
      summary: (b) => `bookmark on ${b.targetId}: ${b.note}`,
      describe: (b) => ({
        title: ["Bookmark on ", { ref: b.targetId }],
        parts: [{ prose: b.note }],
      }),
    }),
  ],
});
