/**
 * `pnpm --filter @pi-sessions/example-transcript start [file] [--out path] [--no-tree]`:
 * renders a real pi session (default: the corpus's `ref-1.6-branched.jsonl`) as Markdown.
 * `file` is a corpus file name or a path; the session is read from a temporary copy.
 */
import { writeFileSync } from "node:fs";
import { openCopy, resolveSession } from "./corpus.js";
import { sessionTranscript } from "./transcript.js";

const args = process.argv.slice(2);
const outAt = args.indexOf("--out");
const out = outAt >= 0 ? args[outAt + 1] : undefined;
const file =
  args.find((a, i) => !a.startsWith("--") && i !== outAt + 1) ?? "ref-1.6-branched.jsonl";

const opened = openCopy(resolveSession(file));
try {
  const markdown = sessionTranscript(opened.sm, { tree: !args.includes("--no-tree") });
  if (out) {
    writeFileSync(out, markdown);
    console.error(`Wrote ${markdown.length} characters to ${out}`);
  } else {
    process.stdout.write(markdown);
  }
} finally {
  opened.close();
}
