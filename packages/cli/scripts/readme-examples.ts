/**
 * Refreshes the example outputs in README.md by running the real bin (`pnpm --filter
 * @pi-sessions/cli readme:examples`). Every block that follows a marker
 *
 *   <!-- example: tree "Fix flaky upload test" -->        (whole output)
 *   <!-- example 25: export 019cadc6 --format md -->       (first 25 lines)
 *
 * is replaced by `$ pi-sessions <args>` and what the command printed (stdout, then stderr),
 * plus its exit code when it is not 0. The commands run in document order on one fresh copy
 * of `demo/sessions` at /tmp/pi-demo/agent/sessions (a fixed path, so the README shows stable
 * paths), with PI_CODING_AGENT_DIR pointing there and colours off.
 */

import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const cliDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const agentDir = "/tmp/pi-demo/agent";
const sessions = join(agentDir, "sessions");
rmSync(agentDir, { recursive: true, force: true });
cpSync(join(cliDir, "demo", "sessions"), sessions, { recursive: true });
for (const dir of readdirSync(sessions)) {
  for (const file of readdirSync(join(sessions, dir))) chmodSync(join(sessions, dir, file), 0o600);
}

/** Splits a command line on spaces, keeping "double-quoted" words together. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "");
}

/**
 * `env` without `FORCE_COLOR`: pnpm sets it for scripts, and Node 22 warns on stderr (into the
 * examples) when it is defined beside `NO_COLOR`, even empty.
 */
function plainEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _force, ...rest } = env;
  return rest;
}

function run(args: readonly string[]): string {
  const r = spawnSync(
    process.execPath,
    [
      "--conditions=@pi-sessions/source",
      "--import",
      import.meta.resolve("tsx"),
      join(cliDir, "src", "main.ts"),
      ...args,
    ],
    {
      cwd: "/",
      encoding: "utf8",
      env: plainEnv({
        ...process.env,
        PI_CODING_AGENT_DIR: agentDir,
        // The session index beside the copy: stable paths in the output, no write to the cache.
        PI_SESSIONS_INDEX: join(agentDir, "index.sqlite"),
        NO_COLOR: "1",
      }),
    },
  );
  const exit = r.status === 0 ? "" : `[exit code ${r.status}]\n`;
  return `${r.stdout}${r.stderr}${exit}`;
}

const readme = join(cliDir, "README.md");
const lines = readFileSync(readme, "utf8").split("\n");
const out: string[] = [];
for (let i = 0; i < lines.length; i++) {
  const line = lines[i] as string;
  out.push(line);
  const marker = /^<!-- example(?: (\d+))?: (.*) -->$/.exec(line);
  if (marker === null) continue;
  const [, limit, command] = marker;
  // Skip the old block: its opening fence on the next line through the same fence closing it.
  const open = /^(`{3,})/.exec(lines[i + 1] ?? "")?.[1];
  if (open !== undefined) {
    let j = i + 2;
    while (j < lines.length && lines[j] !== open) j++;
    i = j;
  }
  let text = run(words(command as string))
    .trimEnd()
    .split("\n");
  if (limit !== undefined && text.length > Number(limit)) {
    text = [...text.slice(0, Number(limit)), `… (${text.length - Number(limit)} more lines)`];
  }
  // A fence longer than any backtick run in the output (a Markdown export contains fences).
  const longest = Math.max(
    2,
    ...text.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((m) => m.length))),
  );
  const fence = "`".repeat(longest + 1);
  out.push(`${fence}text`, `$ pi-sessions ${command}`, ...text, fence);
}
writeFileSync(readme, out.join("\n"));
console.log(`updated ${readme}`);
