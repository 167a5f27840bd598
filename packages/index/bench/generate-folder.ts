/** The generated sessions folder of the index benchmark. */

import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionTemplates } from "../../core/bench/generate.js";

/** Writes the folder as pi lays it out, from core's template pool; returns the bytes. */
export function generate(root: string, files: number, kb: number, projects: number): number {
  const templates = sessionTemplates(kb);
  for (let p = 0; p < projects; p++) mkdirSync(join(root, `--work-p${p}--`));
  let total = 0;
  for (let i = 0; i < files; i++) {
    const t = templates[i % templates.length];
    if (t === undefined) continue;
    const header = {
      ...t.head,
      id: `0197idx-${String(i).padStart(6, "0")}`,
      cwd: `/work/p${i % projects}`,
    };
    const text = JSON.stringify(header) + t.body;
    const path = join(root, `--work-p${i % projects}--`, `s${String(i).padStart(6, "0")}.jsonl`);
    writeFileSync(path, text);
    const mtime = 1_735_000_000 + i * 60;
    utimesSync(path, mtime, mtime);
    total += Buffer.byteLength(text);
  }
  return total;
}
