/**
 * `escapeMarkdownInline` (the `escape` of every Markdown `RenderContext`, in our exports and in
 * pi's components) keeps text literal in real renderers: CommonMark, GitHub-flavoured
 * Markdown and pi's own Markdown component show exactly the text that was escaped. Before the
 * fix, bare URLs kept backslashes in GFM renderers (`…/a\_b\_c`) and pi's component dropped
 * escaped brackets (`Keep draft status`), because it reads `\[ … \]` as LaTeX math.
 */
import { escapeMarkdownInline } from "@pi-sessions/plugins";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonMarkText, folded, gfmText, piMarkdownText } from "./markdown-renderers.js";

// pi's component shows the marks of level-3 headings and below (`### Title`).
const RENDERERS = [
  ["CommonMark", commonMarkText, ""],
  ["GitHub-flavoured (marked)", gfmText, ""],
  ["pi's Markdown component", piMarkdownText, "### "],
] as const;

const CASES = [
  "See https://example.com/a_b_c",
  "Keep [draft] status",
  "Follow [the guide](https://example.com/guide).",
  "Costs $a$ and $5, see www.example.com/a_b",
  "\\[x\\] and \\(y\\) are not math",
  "*bold* _it_ `code` <b>html</b> &amp; | ~~del~~ ![img](x.png) [ref]: https://x.y",
  "# not a heading",
  "1. not a list",
  "    not code",
];

describe("escaped text reads as written in real Markdown renderers", () => {
  for (const [name, visible] of RENDERERS) {
    it(`${name}: the reported cases`, () => {
      for (const text of CASES) expect(visible(escapeMarkdownInline(text))).toBe(folded(text));
    });
  }

  // Text made of the pieces Markdown gives meaning to: emphasis, links, autolinks, math,
  // HTML, entities, block markers, URLs with and without a scheme.
  const pieces = fc.constantFrom(
    ..."abc xyz 0 1 ( ) [ ] < > * _ ` ~ & $ \\ | # + - = ! . , : ; / ? @ ' \"".split(" "),
    " ",
    "  ",
    "\n",
    "https://",
    "http://",
    "ftp://",
    "www.",
    "example.com",
    "/a_b",
    "&amp;",
    "&#91;",
    "$$",
    "\\[",
    "\\(",
    "1. ",
    "- ",
    "    ",
  );
  const text = fc.array(pieces, { maxLength: 24 }).map((p) => p.join(""));

  // Where the default renderers put escaped metadata: alone, inside emphasis, in a heading.
  const placements = [
    (e: string) => e,
    (e: string) => `_Session name: ${e}_ · \`id\``,
    (e: string) => `### ${e}`,
  ];
  const shown = [
    (t: string) => t,
    (t: string) => `Session name: ${t} · id`,
    (t: string, marks: string) => `${marks}${t}`,
  ];

  for (const [name, visible, headingMarks] of RENDERERS) {
    it(`${name}: any text reads as written, alone, in emphasis, in a heading (numRuns 400)`, () => {
      fc.assert(
        fc.property(text, fc.nat(placements.length - 1), (t, at) => {
          // Emphasis around nothing is no emphasis: renderers print an empty name otherwise.
          fc.pre(at === 0 || folded(t) !== "");
          const placed = (placements[at] as (e: string) => string)(escapeMarkdownInline(t));
          const expected = (shown[at] as (t: string, marks: string) => string)(t, headingMarks);
          expect(visible(placed)).toBe(folded(expected));
        }),
        fcOptions(400),
      );
    });
  }
});
