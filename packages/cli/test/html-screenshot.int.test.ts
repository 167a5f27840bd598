/**
 * The `export --format html` page in a real browser: headless Chromium (through playwright-core)
 * opens the exported file, the branch sections, fork marker, compaction and branch summary must
 * be visible, no script may exist or run (the fixture carries hostile text), and a full-page
 * screenshot is saved to `test-output/export-tree.png` (gitignored) and checked to be a real,
 * non-trivial PNG. Chromium is `/usr/bin/chromium` (CI installs it with apt) unless
 * `CHROMIUM_PATH` says otherwise.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "@pi-sessions/test-utils";
import { chromium } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { type TempRoot, tempRoot, writeDemoSession } from "./export-fixtures.js";
import { CLI_DIR, runBin } from "./helpers/run-bin.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const SCREENSHOT = join(CLI_DIR, "test-output", "export-tree.png");

let tmp: TempRoot;
let profile: string;
beforeAll(() => {
  tmp = tempRoot();
  profile = tempDir("pi-sessions-chromium-");
});

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))).toBe(true);
  expect(bytes.toString("latin1", 12, 16)).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

it("renders branches and compactions visibly in headless Chromium, runs nothing, and screenshots", async () => {
  const demo = writeDemoSession(tmp.project, {
    // Hostile text in the first user message only; every other spot keeps its default text.
    texts: [
      "List the files in <script>window.__pwned = 1</script> and <img src=x onerror=alert(1)>",
      ...Array.from({ length: 15 }, () => undefined),
    ],
  });
  const html = join(tmp.scratch, "tree.html");
  const r = await runBin(["export", demo.path, "--tree", "--format", "html", "-o", html]);
  expect(r.code).toBe(0);

  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport: { width: 1000, height: 900 },
  });
  try {
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(pathToFileURL(html).href);

    const branches = page.locator("section.branch");
    await expect.poll(() => branches.count()).toBe(2);
    expect(await branches.first().locator("h2").textContent()).toContain("Branch 1 — current");
    expect(await branches.nth(1).locator("h2").textContent()).toContain(
      `forks from ${demo.forkPoint}`,
    );
    for (const selector of [
      "aside.fork",
      "article.t-compaction",
      "article.t-branch_summary",
      "article.leaf",
      `#branch-2 article[data-id="${demo.abandonedLeaf}"]`,
    ]) {
      expect(await page.locator(selector).first().isVisible(), selector).toBe(true);
    }
    const compaction = page.locator("article.t-compaction").first();
    // The compaction reads as in the Markdown export (one description per type).
    expect(await compaction.textContent()).toContain("5,400 tokens summarised");
    // The compaction is boxed in its own colour, not drawn like a message.
    // A string expression: this test compiles without the DOM library.
    const background = (selector: string) =>
      page.evaluate<string>(
        `getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor`,
      );
    const colours = {
      compaction: await background("article.t-compaction"),
      assistant: await background("article.r-assistant"),
    };
    expect(colours.compaction).toMatch(/^rgb/);
    expect(colours.compaction).not.toBe(colours.assistant);
    // Hostile text is shown as text; nothing from it runs.
    expect(await page.locator("article.r-user").first().textContent()).toContain("<script>");
    expect(await page.locator("script, img").count()).toBe(0);
    expect(await page.evaluate<unknown>("window.__pwned")).toBeUndefined();
    expect(dialogs).toEqual([]);

    mkdirSync(join(CLI_DIR, "test-output"), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  } finally {
    await context.close();
  }
  const png = readFileSync(SCREENSHOT);
  const { width, height } = pngSize(png);
  expect(width).toBe(1000);
  expect(height).toBeGreaterThan(1500);
  // A blank page compresses to almost nothing; a rendered transcript does not.
  expect(png.length).toBeGreaterThan(50_000);
});
