/**
 * Writes a generated sessions folder for looking at one command by hand (profiling):
 *   node --conditions=@pi-sessions/source --import tsx packages/index/bench/make-folder.ts DIR [--files N]
 * The layout and contents are the index benchmark's (`generate` there).
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { numberFlag } from "../../core/bench/flags.js";
import { generate } from "./generate-folder.js";

const dir = process.argv[2];
if (dir === undefined) throw new Error("usage: make-folder.ts DIR [--files N]");
mkdirSync(join(dir, "sessions"), { recursive: true });
const bytes = generate(join(dir, "sessions"), numberFlag("files", 1000), 87, 20);
console.log(`${(bytes / 2 ** 20).toFixed(0)} MiB in ${dir}/sessions`);
