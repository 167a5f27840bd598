/**
 * A session the real `pi` 1.6 command wrote keeps its system prompt in the system message's
 * `sections` (its `content` is empty) and its tools in `toolsAdded`. `export` (Markdown and
 * HTML) and `tree` must show that prompt: they showed an empty code block and a bare
 * `system:` line. The expected text is pi's own reading of the message
 * (`getSystemMessageText`); the checks are soft so that each view reports on its own.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getSystemMessageText, type SystemMessage } from "@earendil-works/pi-ai";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../src/export/html-escape.js";
import { runBin } from "../helpers/run-bin.js";
import { sessionFilesOf } from "./compare-files.js";
import { commonPiArgs, makeSide, runSide } from "./pi-sides.js";

/** The system message pi wrote in a session file (the first one). */
function systemMessageOf(file: string): SystemMessage {
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line);
    if (entry.type === "message" && entry.message?.role === "system") return entry.message;
  }
  throw new Error(`no system message in ${file}`);
}

describe("a pi 1.6 system prompt in export and tree", () => {
  it("shows the prompt's sections and tools, not an empty block", async () => {
    const side = makeSide(tempDir("system-prompt-views-"), "pi");
    const run = await runSide(side, [...commonPiArgs(), "-p", "Hello."]);
    expect(run.code, run.stderr).toBe(0);
    const [file] = sessionFilesOf(side) as [string];
    const system = systemMessageOf(file);
    // The shape that hid the prompt: nothing in content, everything in sections and tools.
    expect(system.content).toBe("");
    expect(Object.keys(system.sections ?? {}).length).toBeGreaterThan(0);
    const tools = (system.toolsAdded ?? []).map((t) => t.name);
    expect(tools.length).toBeGreaterThan(0);
    const prompt = getSystemMessageText(system);
    expect(prompt.length).toBeGreaterThan(100);

    const md = await runBin(["export", file, "--format", "md"]);
    expect(md.code, md.stderr).toBe(0);
    const section = md.stdout.slice(md.stdout.indexOf("### System prompt"));
    expect.soft(section).toContain(`\n${prompt}\n`);
    expect.soft(section).toContain(`tools added: ${tools.map((t) => `\`${t}\``).join(", ")}`);

    const out = join(side.exportDir, "session.html");
    const html = await runBin(["export", file, "--format", "html", "-o", out]);
    expect(html.code, html.stderr).toBe(0);
    const page = readFileSync(out, "utf8");
    // The prompt verbatim (it is not Markdown), the tools as code, as the plugins' HTML
    // output renders a system message.
    expect.soft(page).toContain(`<pre class="raw">${escapeHtml(prompt)}</pre>`);
    const toolCodes = tools.map((t) => `<code>${escapeHtml(t)}</code>`).join(", ");
    expect.soft(page).toContain(`<div class="meta">tools added: ${toolCodes}</div>`);

    const tree = await runBin(["tree", file]);
    expect(tree.code, tree.stderr).toBe(0);
    const line = tree.stdout.split("\n").find((l) => l.includes("system:")) ?? "";
    const firstWords = prompt.split("\n")[0]?.slice(0, 20) ?? "";
    expect(firstWords.length).toBeGreaterThan(0);
    expect.soft(line).toContain(`system: ${firstWords}`);
  }, 120_000);
});
