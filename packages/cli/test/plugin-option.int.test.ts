/**
 * `--plugin <module>` (and `$PI_SESSIONS_PLUGINS`) through the real bin: a session holding a
 * plugin's own entry type (`bookmark`, written by the plugins API's `appendWireEntry`) reads by
 * the plugin's summary in `tree` and by its view in Markdown and HTML exports, and as an unknown
 * type without it. The plugin module is plain JavaScript importing the published packages, as
 * an outsider writes one (`plugin-modules/bookmark-plugin.mjs`); under `test:dist` the bundled
 * bin loads it beside its own copy of the plugins package. Every way a module can be wrong is
 * exit 2 with one line on stderr.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import { installPlugins } from "@pi-sessions/plugins";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { type BinResult, CLI_DIR, runBin } from "./helpers/run-bin.js";
// @ts-expect-error: a plain JavaScript module (no declarations), as a plugin author ships it
import bookmarks, { bookmark } from "./plugin-modules/bookmark-plugin.mjs";

const MODULES = join(CLI_DIR, "test", "plugin-modules");
const PLUGIN = join(MODULES, "bookmark-plugin.mjs");

/** A session with a question, an answer and a bookmark on the question; its file and ids. */
function bookmarkedSession() {
  const root = tempDir();
  const sm = SessionManager.create("/my/project", root, { env: createDeterministicEnv() });
  const host = installPlugins(sm, [bookmarks]);
  const question = sm.appendMessage({
    role: "user",
    content: "Where is the parser?",
    timestamp: 1,
  });
  sm.appendCustomMessageEntry("note", "In src/parse.ts.", true);
  sm.appendCustomEntry("todo", { title: "<b>ship</b>" });
  const mark = host.appendWireEntry(bookmark, { targetId: question, note: "start <b>here</b>" });
  return { root, file: sm.getSessionFile() as string, question, mark };
}

/** The tree line of entry `id` (`<short id> <summary>…`). */
const lineOf = (r: BinResult, id: string) =>
  r.stdout.split("\n").find((line) => line.startsWith(id.slice(0, 8)));

/** A run that failed as a bad argument: exit 2, one line on stderr, nothing on stdout. */
function expectUsageError(r: BinResult): string {
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1); // no stack trace
  return lines[0] as string;
}

describe("tree --plugin", () => {
  it("summarises the plugin's entry type by the plugin, and by its type name without it", async () => {
    const { file, question, mark } = bookmarkedSession();
    const plain = await runBin(["tree", file]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(lineOf(plain, mark)).toBe(`${mark.slice(0, 8)} bookmark ← leaf`);
    const withPlugin = await runBin(["tree", file, "--plugin", PLUGIN]);
    expect(withPlugin.code, withPlugin.stderr).toBe(0);
    expect(lineOf(withPlugin, mark)).toBe(
      `${mark.slice(0, 8)} 🔖 start <b>here</b> (on ${question}) ← leaf`,
    );
    // Built-in entries keep their own lines.
    expect(lineOf(withPlugin, question)).toBe(lineOf(plain, question));
    expect(withPlugin.stdout.replace(lineOf(withPlugin, mark) as string, "")).toBe(
      plain.stdout.replace(lineOf(plain, mark) as string, ""),
    );
  });

  it("reads the same through the index (--depth), in --json, and from $PI_SESSIONS_PLUGINS", async () => {
    const { file, question, mark } = bookmarkedSession();
    const summary = `🔖 start <b>here</b> (on ${question})`;
    const viaIndex = await runBin(["tree", file, "--depth", "5", "--plugin", PLUGIN]);
    expect(lineOf(viaIndex, mark)).toBe(`${mark.slice(0, 8)} ${summary} ← leaf`);
    const json = await runBin(["tree", file, "--json", "--plugin", PLUGIN]);
    const nodes = JSON.parse(json.stdout).nodes as { id: string; summary: string }[];
    expect(nodes.find((n) => n.id === mark)?.summary).toBe(summary);
    const fromEnv = await runBin(["tree", file], { env: { PI_SESSIONS_PLUGINS: PLUGIN } });
    expect(lineOf(fromEnv, mark)).toBe(`${mark.slice(0, 8)} ${summary} ← leaf`);
  });

  it("resolves a path from the working directory and a package name from the project there", async () => {
    const { file, mark } = bookmarkedSession();
    const relative = await runBin(["tree", file, "--plugin", "./bookmark-plugin.mjs"], {
      cwd: MODULES,
    });
    expect(lineOf(relative, mark)).toContain("🔖 start");
    // A package of the user's project, exported for `import` only, its plugin a named export.
    const project = tempDir();
    const pkg = join(project, "node_modules", "@me", "bookmarks");
    mkdirSync(join(pkg, "lib"), { recursive: true });
    writeFileSync(
      join(pkg, "package.json"),
      JSON.stringify({
        name: "@me/bookmarks",
        type: "module",
        exports: { ".": { import: "./lib/main.mjs" } },
      }),
    );
    writeFileSync(
      join(pkg, "lib", "main.mjs"),
      `export { default as bookmarks } from ${JSON.stringify(PLUGIN)};\n`,
    );
    const byName = await runBin(["tree", file, "--plugin", "@me/bookmarks"], {
      cwd: join(project),
    });
    expect(byName.code, byName.stderr).toBe(0);
    expect(lineOf(byName, mark)).toContain("🔖 start");
  });
});

describe("export --plugin", () => {
  it("renders the plugin's view in HTML, escaped, with its reference a link", async () => {
    const { file, question, mark } = bookmarkedSession();
    const r = await runBin(["export", file, "--format", "html", "--plugin", PLUGIN]);
    expect(r.code, r.stderr).toBe(0);
    const article = /<article [^>]*data-id="([^"]+)"[^>]*>[\s\S]*?<\/article>/g;
    const html = [...r.stdout.matchAll(article)].find((m) => m[1] === mark)?.[0] ?? "";
    expect(html).toContain(
      `<div class="head">Bookmark on <a href="#e-${question}"><code>${question}</code></a> (user)</div>`,
    );
    expect(html).toContain(`<pre class="text">start &lt;b&gt;here&lt;/b&gt;</pre>`);
    expect(r.stdout).not.toContain("<b>here</b>");
    const plain = await runBin(["export", file, "--format", "html"]);
    const fallback = [...plain.stdout.matchAll(article)].find((m) => m[1] === mark)?.[0] ?? "";
    expect(fallback).toContain("Entry of unknown type");
    expect(fallback).not.toContain("Bookmark on");
    // The module's named plugin renders pi's `custom` entries of its customType (as escaped text).
    expect(r.stdout).toContain(`<pre class="text">☐ &lt;b&gt;ship&lt;/b&gt;</pre>`);
    expect(plain.stdout).not.toContain("☐");
    expect(plain.stdout).toContain("Custom entry · todo");
  });

  it("renders the plugin's view in Markdown (--tree too), and the unknown type without it", async () => {
    const { file, question, mark } = bookmarkedSession();
    const title = `### Bookmark on \`${question}\` (user) · \`${mark}\``;
    for (const scope of [[], ["--tree"]]) {
      const r = await runBin(["export", file, "--format", "md", ...scope, "--plugin", PLUGIN]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`${title}\n\nstart <b>here</b>`);
      const plain = await runBin(["export", file, "--format", "md", ...scope]);
      expect(plain.stdout).toContain("Entry of unknown type");
      expect(plain.stdout).not.toContain(title);
    }
  });
});

describe("a plugin module that cannot be used is exit 2 with one line", () => {
  /** A module file with `text` in a temp folder; its path. */
  const moduleFile = (name: string, text: string) => {
    const path = join(tempDir(), name);
    writeFileSync(path, text);
    return path;
  };

  it("a file that does not exist, or a package that is not installed", async () => {
    const { file } = bookmarkedSession();
    const cwd = tempDir();
    expect(expectUsageError(await runBin(["tree", file, "--plugin", "./nope.mjs"], { cwd }))).toBe(
      `pi-sessions: plugin module ./nope.mjs: no such file: ${join(cwd, "nope.mjs")}`,
    );
    writeFileSync(join(cwd, "mine.mjs"), "");
    expect(expectUsageError(await runBin(["export", file, "--plugin", "mine.mjs"], { cwd }))).toBe(
      `pi-sessions: plugin module mine.mjs: no package "mine.mjs" is installed for ${cwd} (for the file, write ./mine.mjs)`,
    );
  });

  it("a module that throws while loading", async () => {
    const { file } = bookmarkedSession();
    const bad = moduleFile("bad.mjs", 'throw new Error("no config\\nfound");\n');
    expect(expectUsageError(await runBin(["tree", file, "--plugin", bad]))).toBe(
      `pi-sessions: plugin module ${bad} failed to load: no config found`,
    );
    const syntax = moduleFile("syntax.mjs", "export default {\n");
    const reason = expectUsageError(await runBin(["tree", file, "--plugin", syntax]));
    expect(reason.startsWith(`pi-sessions: plugin module ${syntax} failed to load: `)).toBe(true);
    expect(reason.length).toBeGreaterThan(
      `pi-sessions: plugin module ${syntax} failed to load: `.length,
    );
  });

  it("a module that exports no plugin, naming what it found", async () => {
    const { file } = bookmarkedSession();
    const none = moduleFile(
      "none.mjs",
      "export default { name: 'look-alike', entryTypes: [], projections: [] };\nexport const size = 3;\n",
    );
    expect(expectUsageError(await runBin(["export", file, "--plugin", none]))).toBe(
      `pi-sessions: plugin module ${none} exports no plugin made by definePlugin (default or named export): found default (an object that is not a plugin), size (a number)`,
    );
    const empty = moduleFile("empty.mjs", "");
    expect(expectUsageError(await runBin(["tree", file, "--plugin", empty]))).toBe(
      `pi-sessions: plugin module ${empty} exports no plugin made by definePlugin (default or named export): it exports nothing`,
    );
  });

  it("a plugin object the registry refuses: its reason, not a silent skip", async () => {
    const { file } = bookmarkedSession();
    // Made by hand, with a wire type that takes a built-in's name without defineEntryType.
    const hijack = moduleFile(
      "hijack.mjs",
      "export default Object.freeze({ name: 'hijack', entryTypes: [], messageTypes: [], projections: [], entryRenderers: {}, messageRenderers: {}, wireTypes: [{ kind: 'wire', definition: { type: 'message' }, view: {} }] });\n",
    );
    expect(expectUsageError(await runBin(["tree", file, "--plugin", hijack]))).toBe(
      `pi-sessions: plugin module ${hijack}: Not a plugin (use definePlugin): "hijack" (wireTypes: entry type "message": declare it with defineEntryType)`,
    );
  });

  it("two plugins claiming one entry type: the registry's refusal, naming both", async () => {
    const { file } = bookmarkedSession();
    const rival = join(MODULES, "rival-bookmark-plugin.mjs");
    expect(
      expectUsageError(await runBin(["tree", file, "--plugin", PLUGIN, "--plugin", rival])),
    ).toBe(
      `pi-sessions: plugin module ${rival}: Plugin "rival-bookmarks": entry type "bookmark" is already registered by plugin "bookmarks"`,
    );
    // One module named twice (flag and environment) is loaded once: no claim against itself.
    const twice = await runBin(["tree", file, "--plugin", PLUGIN], {
      env: { PI_SESSIONS_PLUGINS: PLUGIN },
    });
    expect(twice.code, twice.stderr).toBe(0);
  });
});
