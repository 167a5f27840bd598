import { buildDemoSession } from "./build-session.js";
import { renderContext, renderTree } from "./render.js";

// The README's "start" job: build a branched, compacted, labelled session in memory and
// show what the engine knows about it.
const sm = buildDemoSession();
console.log(`Session ${sm.getSessionId()} — "${sm.getSessionName() ?? "(unnamed)"}"`);
console.log(`${sm.getEntryCount()} entries\n\nTree:`);
for (const line of renderTree(sm)) console.log(`  ${line}`);
console.log("\nContext at the leaf:");
for (const line of renderContext(sm)) console.log(`  ${line}`);

// The other branch ends after a compaction: its context starts with the summary.
const bench = sm.getEntries().find((e) => sm.getLabel(e.id) === "bench");
if (bench) {
  sm.branch(bench.id);
  console.log('\nContext on the branch labelled "bench" (after its compaction):');
  for (const line of renderContext(sm)) console.log(`  ${line}`);
}
