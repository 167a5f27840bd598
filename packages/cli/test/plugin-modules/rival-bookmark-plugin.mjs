// Another plugin with an entry type of the same wire name, `bookmark`: loaded beside
// bookmark-plugin.mjs, the registry refuses the second claim (a test of `--plugin`).
import { defineEntryType, entryCodec } from "@pi-sessions/core";
import { definePlugin } from "@pi-sessions/plugins";
import * as t from "io-ts";

export const rivalBookmarks = definePlugin({
  name: "rival-bookmarks",
  wireTypes: [
    defineEntryType({
      type: "bookmark",
      codec: entryCodec("bookmark", { url: t.string }),
      references: [],
      searchText: null,
      role: "none",
    }),
  ],
});
