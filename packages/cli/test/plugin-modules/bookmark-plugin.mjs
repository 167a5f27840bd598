// A plugin module as someone outside this repository writes one: plain JavaScript importing
// the published packages, one plugin the default export (an entry type of its own), another a
// named one (a renderer of pi's `custom` entries), the entry type's definition exported too.
// `pi-sessions tree|export --plugin ./bookmark-plugin.mjs` loads both plugins.
import { defineEntryType, entryCodec } from "@pi-sessions/core";
import { customEntryType, definePlugin, wireType } from "@pi-sessions/plugins";
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

/** `custom` entries of customType `todo`, drawn as a checkbox line. */
export const todos = definePlugin({
  name: "todos",
  entryTypes: [
    customEntryType({
      customType: "todo",
      data: t.type({ title: t.string }),
      render: (todo, _entry, ctx) => `☐ ${ctx.escape(todo.title)}`,
    }),
  ],
});
