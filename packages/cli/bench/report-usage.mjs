// Preloaded into a benchmarked `pi-sessions` process (`--import`): at exit, writes the
// process's own resource usage (CPU microseconds, peak RSS in KB) to $BENCH_USAGE_FILE.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  const file = process.env.BENCH_USAGE_FILE;
  if (file !== undefined) writeFileSync(file, JSON.stringify(process.resourceUsage()));
});
