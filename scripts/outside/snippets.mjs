// The code snippets of the repository's Markdown, as the outside-project check compiles and
// runs them. Every fenced `ts`, `typescript`, `js` or `mjs` block is a snippet; an HTML comment
// on the line right before its fence says how it is used (nothing: compile and run it):
//
//   <!-- snippet: partial (why) … -->   compiled, not run; the lines after the first are
//                                        declarations put before it (what it assumes)
//   <!-- snippet: continues -->          appended to the previous snippet of the same file
//   <!-- snippet: file NAME -->          written as NAME beside the file's other snippets (a
//                                        module they import, e.g. `./todo-plugin.js`); compiled
//   <!-- snippet: vitest -->             a test file, run by vitest (with the pi hook loaded)
//   <!-- snippet: uses PATH… -->         compiled and run with these repository files beside it
//                                        (an example's own module it imports)
//   <!-- snippet: output -->             before a fenced `text` block: the preceding snippet's
//                                        stdout, compared line by line (trailing spaces aside);
//                                        after a continuation, what the added part prints (the
//                                        whole run must print the blocks shown so far, in order)
import { readFileSync } from "node:fs";

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)\s*$/;
const CODE_LANGS = new Map([
  ["ts", "ts"],
  ["typescript", "ts"],
  ["js", "mjs"],
  ["mjs", "mjs"],
  ["javascript", "mjs"],
]);

/** The marker comment that ends on line `end` (exclusive), if any: its text, without `<!-- -->`. */
function markerBefore(lines, at) {
  let i = at - 1;
  if (i < 0 || !lines[i].trimEnd().endsWith("-->")) return undefined;
  const end = i;
  while (i >= 0 && !lines[i].includes("<!--")) i--;
  if (i < 0) return undefined;
  const text = lines
    .slice(i, end + 1)
    .join("\n")
    .replace(/^[\s\S]*?<!--/, "")
    .replace(/-->\s*$/, "");
  return text.trim().startsWith("snippet:")
    ? text.trim().slice("snippet:".length).trim()
    : undefined;
}

/**
 * The snippets of one Markdown text: `[{ kind, ext, code, line, name?, prelude?, reason?,
 * output? }]` with `kind` one of "run", "partial", "file", "vitest"; continuations are merged.
 */
export function extractSnippets(markdown, source = "") {
  const lines = markdown.split("\n");
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    // A fence inside a list item is indented; its body loses that indentation.
    const [, indent, fence, info] = open;
    const closes = (line) =>
      line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, "") === "";
    let close = i + 1;
    while (close < lines.length && !closes(lines[close])) close++;
    const body = lines
      .slice(i + 1, close)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join("\n");
    const marker = markerBefore(lines, i);
    const lang = info.toLowerCase();
    const where = `${source}:${i + 1}`;
    if (marker === "output") {
      const last = out[out.length - 1];
      if (last?.kind !== "run")
        throw new Error(`${where}: an output block follows no runnable snippet`);
      last.output = last.shownBefore === undefined ? body : `${last.shownBefore}\n${body}`;
    } else if (CODE_LANGS.has(lang)) {
      const snippet = { kind: "run", ext: CODE_LANGS.get(lang), code: body, line: i + 1 };
      if (marker === undefined) out.push(snippet);
      else if (marker === "continues") {
        const last = out[out.length - 1];
        if (!last) throw new Error(`${where}: "continues" but no snippet before it`);
        last.code += `\n${body}`;
        last.shownBefore = last.output;
      } else if (marker === "vitest") out.push({ ...snippet, kind: "vitest" });
      else if (marker.startsWith("file "))
        out.push({ ...snippet, kind: "file", name: marker.slice(5).trim() });
      else if (marker.startsWith("uses "))
        out.push({ ...snippet, uses: marker.slice(5).trim().split(/\s+/) });
      else if (marker.startsWith("partial")) {
        const [first, ...rest] = marker.split("\n");
        const reason = /\((.*)\)/.exec(first)?.[1];
        if (!reason)
          throw new Error(`${where}: a partial snippet says why: <!-- snippet: partial (why) -->`);
        out.push({ ...snippet, kind: "partial", reason, prelude: rest.join("\n") });
      } else throw new Error(`${where}: unknown snippet marker "${marker}"`);
    } else if (marker !== undefined) {
      throw new Error(`${where}: a snippet marker before a ${lang || "plain"} block`);
    }
    i = close;
  }
  return out;
}

/** The snippets of a Markdown file. */
export function snippetsOfFile(path, shownAs = path) {
  return extractSnippets(readFileSync(path, "utf8"), shownAs);
}
