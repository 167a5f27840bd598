import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { openSessionIndex, SearchQueryError } from "../src/index.js";
import { sessionText } from "./session-text.js";

function setUp() {
  const root = join(tempDir(), "sessions");
  mkdirSync(join(root, "--a--"), { recursive: true });
  mkdirSync(join(root, "--b--"));
  const first = join(root, "--a--", "one.jsonl");
  writeFileSync(
    first,
    sessionText("11111111-aaaa", "/work/a", [
      { user: "how do I rotate the penguin image" },
      { assistant: "Use the rotate command on the penguin", model: "model-x" },
      { toolResult: "penguin.png rotated by 90 degrees" },
      { custom: "a note about walruses" },
    ]),
  );
  const second = join(root, "--b--", "two.jsonl");
  writeFileSync(
    second,
    sessionText("22222222-bbbb", "/work/b", [
      { user: "penguin facts please" },
      { assistant: "Penguins cannot fly", model: "model-y" },
    ]),
  );
  const index = openSessionIndex({ file: join(tempDir(), "index.sqlite") });
  return { root, first, second, index };
}

test("search finds user, assistant, tool-result and custom text, ranked, with entry ids", async () => {
  const { root, first, index } = setUp();
  const hits = await index.search("penguin", { dir: root });
  expect(hits.map((h) => `${h.sessionId}/${h.entryId}`).sort()).toEqual([
    "11111111-aaaa/e0",
    "11111111-aaaa/e1",
    "11111111-aaaa/e2", // "penguin.png": the tokenizer splits at the dot
    "22222222-bbbb/e0",
  ]);
  expect(hits.every((h) => h.snippet.includes("[penguin]"))).toBe(true);
  const ranks = hits.map((h) => h.rank);
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  const tool = await index.search("degrees", { dir: root });
  expect(tool).toMatchObject([{ path: first, entryId: "e2", line: 4, role: "toolResult" }]);
  expect(await index.search("walruses", { dir: root })).toMatchObject([
    { entryId: "e3", role: "custom", type: "custom_message", snippet: "a note about [walruses]" },
  ]);
  // Every word must occur; a trailing `*` matches a prefix.
  expect(
    (await index.search("rotate penguin", { dir: root })).map((h) => h.entryId).sort(),
  ).toEqual(["e0", "e1"]);
  expect((await index.search("pengui*", { dir: root })).length).toBe(5);
  index.close();
});

test("search filters by cwd, role, model, dates and session", async () => {
  const { root, index } = setUp();
  const ids = async (filters: Parameters<typeof index.search>[1]) =>
    (await index.search("penguin*", { dir: root, ...filters }))
      .map((h) => `${h.sessionId.slice(0, 2)}/${h.entryId}`)
      .sort();
  expect(await ids({ cwd: "/work/b" })).toEqual(["22/e0", "22/e1"]);
  expect(await ids({ role: "assistant" })).toEqual(["11/e1", "22/e1"]);
  expect(await ids({ role: ["user", "toolResult"] })).toEqual(["11/e0", "11/e2", "22/e0"]);
  expect(await ids({ model: "model-y" })).toEqual(["22/e1"]);
  expect(await ids({ since: new Date(Date.UTC(2026, 0, 2)) })).toEqual(["11/e1", "11/e2", "22/e1"]);
  expect(await ids({ until: new Date(Date.UTC(2026, 0, 2)) })).toEqual(["11/e0", "22/e0"]);
  expect(await ids({ session: "2222" })).toEqual(["22/e0", "22/e1"]);
  expect(await ids({ limit: 1 })).toHaveLength(1);
  index.close();
});

test("search never returns text a file no longer holds", async () => {
  const { root, second, index } = setUp();
  expect(await index.search("fly", { dir: root })).toHaveLength(1);
  writeFileSync(
    `${second}.tmp`,
    sessionText("22222222-bbbb", "/work/b", [{ user: "swimming birds" }]),
  );
  renameSync(`${second}.tmp`, second);
  expect(await index.search("fly", { dir: root })).toEqual([]);
  expect(await index.search("swimming", { dir: root })).toMatchObject([
    { path: second, entryId: "e0" },
  ]);
  index.close();
});

test("a query without words is refused with a clear error; FTS syntax is searched as text", async () => {
  const { root, index } = setUp();
  await expect(index.search("  ", { dir: root })).rejects.toThrow(SearchQueryError);
  expect(await index.search('penguin" OR "walruses', { dir: root })).toEqual([]);
  expect(await index.search("AND NEAR(", { dir: root })).toEqual([]);
  index.close();
});
