import {
  createRenderers,
  customEntryType,
  definePlugin,
  installPlugins,
  renderBranch,
  renderTree,
} from "@pi-sessions/plugins";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import { freshManager } from "./plugin-fixtures.js";

const bookmark = customEntryType({ customType: "bookmark", data: t.type({ title: t.string }) });
const pluginRendering = (name: string, word: string) =>
  definePlugin({
    name,
    entryTypes: [bookmark],
    entryRenderers: {
      bookmark: (e) => `${word} ${(e as { data: { title: string } }).data.title}`,
    },
  });

describe("renderBranch/renderTree of a manager use its installed plugins' renderers", () => {
  it("installing is enough; explicit renderers still win; uninstall forgets them", () => {
    const sm = freshManager();
    const host = installPlugins(sm, [pluginRendering("bookmarks", "BOOKMARK")]);
    host.appendCustom(bookmark, { title: "start" });
    expect(renderBranch(sm)).toBe("BOOKMARK start\n");
    expect(renderTree(sm)).toBe("BOOKMARK start\n\n_current leaf_\n");
    // The records alone carry no installation: the defaults render them.
    expect(renderBranch(sm.getEntries())).not.toContain("BOOKMARK");
    const own = createRenderers().withEntryRenderer("bookmark", () => "MINE");
    expect(renderBranch(sm, undefined, { renderers: own })).toBe("MINE\n");
    host.uninstall();
    expect(renderBranch(sm)).not.toContain("BOOKMARK");
  });

  it("a later install wins a customType clash; uninstalling it restores the earlier one", () => {
    const sm = freshManager();
    installPlugins(sm, [pluginRendering("first", "FIRST")]).appendCustom(bookmark, { title: "x" });
    const second = installPlugins(sm, [pluginRendering("second", "SECOND")]);
    expect(renderBranch(sm)).toBe("SECOND x\n");
    second.uninstall();
    expect(renderBranch(sm)).toBe("FIRST x\n");
    // Another manager is untouched by either install.
    const other = freshManager(2);
    other.appendCustomEntry("bookmark", { title: "y" });
    expect(renderBranch(other)).not.toContain("FIRST");
  });
});
