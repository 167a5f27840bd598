// A plugin module as someone outside this repository writes one: plain JavaScript importing
// the published packages, its plugin the default export and its entry type a named one.
// `pi-sessions tree|export --plugin ./bookmark-plugin.mjs` loads it.
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

export default definePlugin({
  name: "bookmarks",
  wireTypes: [
    wireType(bookmark, {
      summary: (b) => `🔖 ${b.note} (on ${b.targetId})`,
      describe: (b) => ({
        title: ["Bookmark on ", { ref: b.targetId }],
        parts: [{ prose: b.note }],
      }),
    }),
  ],
});
