/**
 * `usage-counter [sessions root]`: prints the counter's totals as JSON, e.g.
 * `{"records":12,"totalTokens":48211,"cost":0.31}`. The default root is `~/.pi/agent/sessions`;
 * when it does not exist, a generated demo root (a session and its fork) is counted instead,
 * next to what the testkit's oracle says the totals are.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { sessionFolderArb, usageOracle, writeFolder } from "@pi-sessions/testkit";
import fc from "fast-check";
import { countUsage } from "./counter.js";

const given = process.argv[2];
const root = given ?? join(homedir(), ".pi", "agent", "sessions");
if (given !== undefined || existsSync(root)) {
  console.log(JSON.stringify(countUsage(root)));
} else {
  const arb = sessionFolderArb({
    minSessions: 1,
    maxSessions: 1,
    derived: ["fork"],
    links: ["resolvable"],
  });
  const [folder] = fc.sample(
    arb.filter((f) => f.files.some((file) => file.kind === "fork")),
    { numRuns: 1, seed: 3 },
  );
  if (!folder) throw new Error("no demo folder");
  const demo = mkdtempSync(join(tmpdir(), "usage-counter-demo-"));
  try {
    writeFolder(folder, demo);
    const want = usageOracle(folder).total;
    console.log(`no sessions root at ${root}; a demo root with ${folder.files.length} files:`);
    console.log(`counter: ${JSON.stringify(countUsage(demo))}`);
    console.log(
      `oracle:  ${JSON.stringify({ records: want.records, totalTokens: want.totalTokens, cost: want.cost })}`,
    );
  } finally {
    rmSync(demo, { recursive: true, force: true });
  }
}
