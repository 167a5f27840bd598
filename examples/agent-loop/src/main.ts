/**
 * `pnpm --filter @pi-sessions/example-agent-loop start`: runs the scripted agent, narrating
 * each turn's contexts and usage totals, then prints the final branch as a text transcript.
 */
import { renderBranch } from "@pi-sessions/plugins";
import { runDemo } from "./demo.js";

const result = runDemo((line) => console.log(line));
console.log("\nTranscript of the original session's current branch:\n");
console.log(
  renderBranch(result.original.manager, undefined, { format: "text", maxTextLength: 200 }),
);
