import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { corpusFile, tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { openSessionIndex } from "../src/index.js";

/** A sessions root under a temp agent dir that `PI_CODING_AGENT_DIR` points at. */
function folder(): string {
  const agent = tempDir();
  process.env.PI_CODING_AGENT_DIR = agent;
  const root = join(agent, "sessions");
  const a = join(root, "--a--");
  const b = join(root, "--b--");
  mkdirSync(a, { recursive: true });
  mkdirSync(b);
  copyFileSync(corpusFile("large-session.jsonl"), join(a, "large.jsonl"));
  copyFileSync(corpusFile("ref-1.6-branched.jsonl"), join(a, "branched.jsonl"));
  copyFileSync(corpusFile("before-compaction.jsonl"), join(b, "compaction.jsonl"));
  writeFileSync(join(b, "garbage.jsonl"), "not json\n");
  writeFileSync(join(b, "empty.jsonl"), "");
  return root;
}

test("listAll over corpus sessions equals core's, cold, warm and after growth", async () => {
  const root = folder();
  const index = openSessionIndex({ file: join(tempDir(), "index.sqlite") });
  const cold = await index.listAll();
  expect(cold).toEqual(await SessionManager.listAll());
  expect(index.counts.indexed).toBe(5);
  const direct = await SessionManager.listAll(join(root, "--a--"));
  expect(await index.listAll(join(root, "--a--"))).toEqual(direct);
  expect(index.counts.unchanged).toBe(2);
  const file = join(root, "--a--", "branched.jsonl");
  const lines = readFileSync(file, "utf8").split("\n");
  appendFileSync(file, `${lines[1]?.replace(/"id":"[^"]+"/, '"id":"fresh123"')}\n{"type":"mess`);
  expect(await index.listProjects(root, { withShape: true })).toEqual(await listWithShape(root));
  index.close();
});

async function listWithShape(root: string) {
  const { listAllSessions } = await import("@pi-sessions/core/internal");
  return listAllSessions(root, { cache: null, withShape: true });
}
