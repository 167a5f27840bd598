/**
 * `usage-counter <sessions root>`: prints the counter's totals as JSON, e.g.
 * `{"records":12,"totalTokens":48211,"cost":0.31}`. The default root is `~/.pi/agent/sessions`.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { countUsage } from "./counter.js";

const root = process.argv[2] ?? join(homedir(), ".pi", "agent", "sessions");
console.log(JSON.stringify(countUsage(root)));
