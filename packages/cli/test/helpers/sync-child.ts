/**
 * A sync process for the fault tests: `sync-child.ts <rootA> <rootB>` loads the CLI's sync
 * (its public library entry), prints `ready`, waits for a line on stdin, then syncs the two
 * roots and prints the number of sessions done after each one, so a test can kill it in the
 * middle of its reads and writes rather than while Node starts.
 */

import { createInterface } from "node:readline";
import { syncFolders } from "../../src/index.js";

const [rootA, rootB] = process.argv.slice(2) as [string, string];
process.stdout.write("ready\n");
const input = createInterface({ input: process.stdin });
await new Promise((go) => input.once("line", go));
input.close(); // stdin open would keep the process alive after the sync
process.stdin.destroy();
const progress = { update: (done: number) => process.stdout.write(`${done}\n`), done: () => {} };
const results = await syncFolders(rootA, rootB, { dryRun: false, lockWaitMs: 30_000 }, progress);
const bad = results.filter((r) => r.status === "failed" || r.status === "skipped");
process.stdout.write(`end ${bad.length}\n`);
process.exitCode = bad.length === 0 ? 0 : 1;
