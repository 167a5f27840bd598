/**
 * The plugin's renderers as pi registered them: pi's extension runner hands out the entry and
 * message renderers, and each yields a pi-tui component whose rendered lines show exactly
 * what the headless renderer (`renderEntry`, as the CLI uses it) writes for the same entry;
 * a renderer that throws yields `undefined` (pi's default) and is kept in `failures()`.
 */

import type { CustomEntry, CustomMessageEntry } from "@earendil-works/pi-coding-agent";
import { Markdown } from "@earendil-works/pi-tui";
import type { PiSdk } from "@pi-sessions/test-utils/pi-sdk";
import type { ManagerSide } from "@pi-sessions/test-utils/pi-switch";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  initTheme,
  theme,
} from "../../node_modules/@earendil-works/pi-coding-agent/dist/modes/interactive/theme/theme.js";
import { createRegistry, type RenderFormat, renderEntry } from "../../src/index.js";
import { markdownThemeOf } from "../../src/pi/index.js";
import { terminalText } from "../markdown-renderers.js";
import { startTodoSdk, todoExtension, todoPlugin } from "./pi-fixtures.js";

const WIDTH = 100;
const hints = { expanded: false, outputPad: 1, keyText: () => "", keyHint: () => "" };
// ANSI colour codes (ESC [ … m) are stripped: the comparison is of the visible text.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
const plain = (lines: readonly string[]) => lines.map((l) => l.replace(ANSI, "").trimEnd());
const text = (lines: readonly string[]) =>
  plain(lines)
    .map((l) => l.trim())
    .join("\n")
    .trim();

let sdk: PiSdk | undefined;
afterEach(async () => {
  await sdk?.dispose();
  sdk = undefined;
});
beforeAll(() => initTheme("dark", false));

async function start(side: ManagerSide, format: RenderFormat) {
  const started = await startTodoSdk(side, (hosts) => todoExtension(hosts, { format }));
  sdk = started.sdk;
  await sdk.prompt("/add render *me*");
  await sdk.prompt("/done render *me*");
  await sdk.prompt("/done boom");
  await sdk.prompt("/note all <b>good</b>");
  return { s: sdk, host: started.host() };
}

const headlessRenderers = createRegistry([todoPlugin]).renderers();

/** pi's component shows the headless output: as is (text), or as pi's Markdown draws it. */
function expectDrawn(lines: readonly string[], headless: string, format: RenderFormat): void {
  if (format === "text") expect(text(lines)).toBe(headless);
  else {
    expect(plain(lines)).toEqual(
      plain(new Markdown(headless, 1, 0, markdownThemeOf(theme)).render(WIDTH)),
    );
  }
}

describe.each(["pi", "ours"] as const)("renderers in pi over %s's SessionManager", (side) => {
  it.each(["text", "markdown"] as const)(
    "draw the headless %s output as pi-tui components",
    async (format) => {
      const { s, host } = await start(side, format);
      const runner = s.session().extensionRunner;
      const entries = s.session().sessionManager.getBranch();
      const customs = entries.filter((e): e is CustomEntry => e.type === "custom");
      expect(customs.map((e) => e.customType)).toEqual(["t-add", "t-done", "t-done"]);
      const drawn: string[] = [];
      for (const entry of customs) {
        const component = runner.getEntryRenderer(entry.customType)?.(entry, hints, theme);
        const boom = (entry.data as { title?: string }).title === "boom";
        if (boom) {
          expect(component).toBeUndefined();
          continue;
        }
        const headless = renderEntry(entry, { format, renderers: headlessRenderers });
        const lines = component?.render(WIDTH) ?? [];
        expectDrawn(lines, headless, format);
        drawn.push(text(lines));
      }
      const note = entries.find((e): e is CustomMessageEntry => e.type === "custom_message");
      if (!note) throw new Error("no custom message");
      const message = {
        role: "custom" as const,
        customType: note.customType,
        content: note.content,
        display: note.display,
        details: note.details,
        timestamp: Date.parse(note.timestamp),
      };
      const component = runner.getMessageRenderer(note.customType)?.(message, hints, theme);
      const headless = renderEntry(note, { format, renderers: headlessRenderers });
      const lines = component?.render(WIDTH) ?? [];
      expectDrawn(lines, headless, format);
      drawn.push(text(lines));
      // What a user sees: Markdown shows the escaped title literally, text shows it as typed.
      expect(drawn).toEqual([
        "todo: render *me*",
        "done: render *me*",
        "note (0 open): all <b>good</b>",
      ]);
      expect(host.failures().map((f) => [f.where, (f.error as Error).message])).toEqual([
        ['entry renderer "t-done"', "renderer exploded"],
      ]);
    },
  );

  it("show escaped titles as typed: URLs, brackets, links and math (pi's Markdown)", async () => {
    const { s } = await start(side, "markdown");
    const titles = [
      "See https://example.com/a_b_c",
      "Keep [draft] status",
      "Follow [the guide](https://example.com/guide)",
      "Costs $a$ and \\[x\\]",
    ];
    for (const title of titles) await s.prompt(`/add ${title}`);
    const runner = s.session().extensionRunner;
    const adds = s
      .session()
      .sessionManager.getBranch()
      .filter((e): e is CustomEntry => e.type === "custom" && e.customType === "t-add")
      .slice(1);
    const drawn = adds.map((entry) =>
      terminalText(runner.getEntryRenderer("t-add")?.(entry, hints, theme)?.render(WIDTH) ?? []),
    );
    expect(drawn).toEqual(titles.map((title) => `todo: ${title}`));
  });
});
