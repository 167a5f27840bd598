/**
 * Issue 27's walk: a plugin defines `bookmark` { targetId, note } once (`bookmark-plugin.ts`),
 * and it then works everywhere a built-in does — appended through the install, written to and
 * reloaded from the file store, rendered in text, Markdown and HTML, renamed by a merge, and
 * refused with nothing written when malformed. Without the plugin it is kept as an unknown type.
 */
import { readFileSync, writeFileSync } from "node:fs";
import {
  createDeterministicEnv,
  defineEntryType,
  EntryRejectedError,
  entryCodec,
  mergeSessions,
  SessionManager,
} from "@pi-sessions/core";
import {
  definePlugin,
  installPlugins,
  PluginDefinitionError,
  PluginRegistryError,
  renderBranch,
  renderEntry,
  renderEntryHtml,
  renderTree,
  wireType,
} from "@pi-sessions/plugins";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { bookmark, bookmarks } from "./bookmark-plugin.js";
import { assistant, user } from "./plugin-fixtures.js";

const env = (seed = 1) => createDeterministicEnv({ seed, stepMs: 1000 });

/** A file-store session with a question, an answer and a bookmark on the question. */
function bookmarkedFile() {
  const dir = tempDir("pi-sessions-bookmark-");
  const sm = SessionManager.create("/w", dir, { env: env() });
  const host = installPlugins(sm, [bookmarks]);
  const question = sm.appendMessage(user("Where is the parser?"));
  sm.appendMessage(assistant("In src/parse.ts."));
  const id = host.appendWireEntry(bookmark, { targetId: question, note: "start *here*" });
  const file = sm.getSessionFile() as string;
  return { sm, host, question, id, file };
}

describe("a plugin's own wire type, defined once (the bookmark walk)", () => {
  it("appends like core's builders, writes one line, and reloads equal with and without the plugin", () => {
    const { sm, question, id, file } = bookmarkedFile();
    const written = sm.getEntry(id);
    expect(written).toEqual({
      type: "bookmark",
      id,
      parentId: sm.getBranch().at(-2)?.id,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      targetId: question,
      note: "start *here*",
    });
    expect(sm.getLeafId()).toBe(id);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(JSON.parse(lines.at(-1) as string)).toEqual(written);

    const bare = SessionManager.open(file);
    expect(bare.getEntries()).toEqual(sm.getEntries());
    expect(bare.getLoadDiagnostics()).toEqual([]);
    // Without the plugin: SPEC's forward-compatibility rule, an unknown type kept as it is.
    expect(renderBranch(bare, undefined, { format: "text" })).toContain(
      `Entry of unknown type bookmark [${id}]`,
    );
    const reopened = SessionManager.open(file);
    const host = installPlugins(reopened, [bookmarks]);
    expect(reopened.getEntries()).toEqual(sm.getEntries());
    // Appending after the reload continues the same file, through the same codec.
    const second = host.appendWireEntry(bookmark, { targetId: id, note: "and again" });
    expect(SessionManager.open(file).getEntry(second)).toMatchObject({ targetId: id });
  });

  it("renders through its view in text, Markdown and HTML; a tree line and a summary too", () => {
    const { sm, host, question, id } = bookmarkedFile();
    const text = renderBranch(sm, undefined, { format: "text" });
    expect(text).toContain(`Bookmark on ${question} (user) [${id}]\n  start *here*\n`);
    const markdown = renderBranch(sm);
    expect(markdown).toContain(
      `### Bookmark on \`${question}\` (user) · \`${id}\`\n\nstart *here*\n`,
    );
    expect(renderTree(sm, { format: "text", showIds: false })).toContain(
      `Bookmark on ${question} (user)\n  start *here*`,
    );
    const renderers = host.registry.renderers();
    const html = renderEntryHtml(sm.getEntry(id), {
      renderers,
      getEntry: (x) => sm.getEntry(x),
      entryHref: (x) => (x === question ? `#e-${x}` : undefined),
    });
    expect(html).toBe(
      `<div class="head">Bookmark on <a href="#e-${question}"><code>${question}</code></a> (user) <code>${id}</code></div>` +
        `<pre class="text">start *here*</pre>`,
    );
    expect(renderers.summaryOf(sm.getEntry(id))).toBe(`bookmark on ${question}: start *here*`);
    expect(renderers.summaryOf(sm.getEntry(question))).toBeUndefined();
    // One entry alone, with the plugin's renderers: the same description.
    expect(renderEntry(sm.getEntry(id), { renderers, format: "text", showIds: false })).toBe(
      `Bookmark on ${question}\n  start *here*`,
    );
  });

  it("a merge with the plugin's registry renames its reference on an id collision", () => {
    // Two copies of one session (same deterministic ids) whose third entries collide.
    const copy = (text: string, mark: boolean) => {
      const sm = SessionManager.inMemory("/w", { env: env() });
      const host = installPlugins(sm, [bookmarks]);
      sm.appendMessage(user("q"));
      const x = sm.appendMessage(user(text));
      if (mark) host.appendWireEntry(bookmark, { targetId: x, note: "b's" });
      const jsonl = [sm.getHeader(), ...sm.getEntries()].map((r) => JSON.stringify(r)).join("\n");
      return { jsonl: `${jsonl}\n`, x, host };
    };
    const a = copy("on a", false);
    const b = copy("on b", true);
    expect(a.x).toBe(b.x);
    const entryTypes = b.host.registry.entryTypeRegistry();
    const merged = mergeSessions(a.jsonl, b.jsonl, { entryTypes });
    const [renamed] = merged.report.renamed;
    expect(renamed).toMatchObject({ from: b.x, copy: "b" });
    const records = merged.bytes
      .toString()
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const mark = records.find((r) => r.type === "bookmark");
    expect(mark).toMatchObject({ parentId: renamed?.to, targetId: renamed?.to, note: "b's" });
    // Without the registry the bookmark is an unknown type: only its parent follows.
    const plain = mergeSessions(a.jsonl, b.jsonl);
    const unknown = plain.bytes
      .toString()
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(unknown.find((r) => r.type === "bookmark")).toMatchObject({
      parentId: renamed?.to,
      targetId: b.x,
    });
  });

  it("refuses a malformed bookmark with a clear error and writes nothing", () => {
    const { sm, host, question, file } = bookmarkedFile();
    const before = readFileSync(file, "utf8");
    const entries = sm.getEntries();
    const leaf = sm.getLeafId();
    const bad = { targetId: question, note: 7 } as unknown as { targetId: string; note: string };
    const error = (() => {
      try {
        host.appendWireEntry(bookmark, bad);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(EntryRejectedError);
    expect((error as EntryRejectedError).message).toBe(
      'Entry of type "bookmark" rejected by entry type "bookmark": it does not match its definition: note: expected string, got number 7',
    );
    expect((error as EntryRejectedError).issues.map((i) => i.path)).toEqual(["note"]);
    // Fields the append fills in, a type not installed here: refused as well.
    const withId = { targetId: question, note: "x", id: "mine" } as never;
    expect(() => host.appendWireEntry(bookmark, withId)).toThrow('"id" is filled in by the append');
    const stranger = defineEntryType({ ...bookmark, type: "stranger" });
    expect(() => host.appendWireEntry(stranger, bad)).toThrow('"stranger" is not installed here');
    // Another definition of the installed name, looser, through core: the install refuses it.
    const loose = defineEntryType({
      ...bookmark,
      codec: entryCodec("bookmark", {}),
      references: [],
    });
    expect(() => sm.appendDefinedEntry(loose, { note: 1 } as never)).toThrow(
      /rejected by plugin "bookmarks": entry type "bookmark" does not match its definition: .*targetId/,
    );
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(sm.getEntries()).toEqual(entries);
    expect(sm.getLeafId()).toBe(leaf);
  });

  it("uninstalling takes the append, the guard and the view away again", () => {
    const sm = SessionManager.inMemory("/w", { env: env() });
    const host = installPlugins(sm, [bookmarks]);
    const q = sm.appendMessage(user("q"));
    const id = host.appendWireEntry(bookmark, { targetId: q, note: "n" });
    host.uninstall();
    expect(() => host.appendWireEntry(bookmark, { targetId: q, note: "n" })).toThrow("uninstalled");
    expect(renderBranch(sm, id, { format: "text" })).toContain("Entry of unknown type bookmark");
    // Core's own check stays: the definition's codec, not the plugin's guard.
    expect(() => sm.appendDefinedEntry(bookmark, { targetId: q } as never)).toThrow(
      'rejected by entry type "bookmark"',
    );
    const loose = defineEntryType({
      ...bookmark,
      codec: entryCodec("bookmark", {}),
      references: [],
    });
    expect(sm.getEntry(sm.appendDefinedEntry(loose, {}))).toMatchObject({ type: "bookmark" });
  });

  it("a malformed bookmark in a file loads, and renders as unknown with the problem named", () => {
    const { file, id } = bookmarkedFile();
    const text = readFileSync(file, "utf8").replace('"note":"start *here*"', '"note":null');
    writeFileSync(file, text);
    const sm = SessionManager.open(file);
    installPlugins(sm, [bookmarks]);
    expect(sm.getEntry(id)).toMatchObject({ type: "bookmark", note: null });
    const shown = renderBranch(sm, undefined, { format: "text" });
    expect(shown).toContain(`Entry of unknown type bookmark [${id}]`);
    expect(shown).toContain(
      '(view of entry type "bookmark" failed (it does not match its definition: note: expected string, got null); default rendering shown)',
    );
  });

  it("the compiler checks appends and views against the codec (each refused at run time too)", () => {
    const sm = SessionManager.inMemory("/w");
    const host = installPlugins(sm, [bookmarks]);
    const q = sm.appendMessage(user("q"));
    // @ts-expect-error `note` is missing
    expect(() => host.appendWireEntry(bookmark, { targetId: q })).toThrow(EntryRejectedError);
    // @ts-expect-error `targetId` is a string
    const wrong = () => host.appendWireEntry(bookmark, { targetId: 1, note: "" });
    expect(wrong).toThrow(EntryRejectedError);
    // @ts-expect-error a bookmark has no `title`
    const view = wireType(bookmark, { summary: (b) => b.title });
    expect(view.definition).toBe(bookmark);
    expect(sm.getEntries()).toHaveLength(1);
  });

  it("a plugin's definition is checked: a built-in name, a bare object, a name twice", () => {
    const label = defineEntryType({ ...bookmark, type: "label" });
    expect(() => definePlugin({ name: "p", wireTypes: [label] })).toThrow(PluginDefinitionError);
    const bare = { ...bookmark };
    expect(() => definePlugin({ name: "p", wireTypes: [bare] })).toThrow(/defineEntryType/);
    expect(() => definePlugin({ name: "p", wireTypes: [bookmark, bookmark] })).toThrow(
      'wire type "bookmark" is declared twice',
    );
    // Two plugins claiming one wire name: the registry refuses the second, as for customTypes.
    const rival = definePlugin({ name: "rival", wireTypes: [bookmark] });
    expect(() => installPlugins(SessionManager.inMemory("/w"), [bookmarks, rival])).toThrow(
      PluginRegistryError,
    );
  });
});
