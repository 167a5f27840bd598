/**
 * `pnpm start`: shows the CLI on the bundled demo sessions (`demo/sessions/`: three real pi
 * session files plus generated branched, compacted, labelled, forked and damaged ones). It
 * works on a copy in a temporary directory — `check --repair` and `migrate` write, and the
 * bundled files must stay as they are — runs a few commands through the real program, and
 * prints the path of the copy so you can go on from there.
 */

import { chmodSync, cpSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { processIo } from "../src/io/io.js";
import { runCli } from "../src/program.js";

const cliDir = join(dirname(fileURLToPath(import.meta.url)), "..");
// The copy stays for the user to explore; tests point PI_SESSIONS_DEMO_DIR at a directory
// they clean up.
const copy = mkdtempSync(join(process.env.PI_SESSIONS_DEMO_DIR ?? tmpdir(), "pi-sessions-demo-"));
const sessions = join(copy, "sessions");
cpSync(join(cliDir, "demo", "sessions"), sessions, { recursive: true });
// A checkout may leave the files read-only; the copy is ours to repair and migrate.
for (const dir of readdirSync(sessions)) {
  for (const file of readdirSync(join(sessions, dir))) chmodSync(join(sessions, dir, file), 0o600);
}

// The demo's session index lives in the copy too: its temporary sessions never enter the
// user's own index, even one named by PI_SESSIONS_INDEX.
const io = {
  ...processIo(),
  env: { ...process.env, PI_SESSIONS_INDEX: join(copy, "index.sqlite") },
};
const bold = (text: string): string => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[22m` : text);

/** Runs one command as a user would type it, after a `$ pi-sessions …` line. */
async function show(args: readonly string[]): Promise<void> {
  io.stdout.write(`\n${bold(`$ pi-sessions ${args.join(" ")}`)}\n`);
  const code = await runCli(["--dir", sessions, ...args], io);
  if (code !== 0) io.stdout.write(`(exit code ${code})\n`);
}

io.stdout.write(`Demo sessions copied to ${sessions}\n`);
await show(["ls", "--all"]);
await show(["index", "--verify"]);
await show(["search", "listener", "--limit", "3"]);
await show(["tree", "Fix flaky upload test"]);
await show(["context", "Upload API follow-up"]);
await show(["usage", "Fix flaky upload test"]);
await show(["usage", "--all", "--by", "model"]);
await show(["check"]);
await show(["check", "Damaged example", "--repair"]);
await show(["migrate", "--dry-run", sessions]);
io.stdout.write(
  `\nTry more on the copy:\n  node ${join(cliDir, "bin", "pi-sessions.mjs")} --dir ${sessions} --help\n` +
    `or, without a build: pnpm --filter @pi-sessions/cli dev --dir ${sessions} ls --all\n`,
);
