/**
 * The bundled demo sessions (`demo/sessions/`): copies of the three real corpus files plus
 * generated ones — a branched, compacted, labelled session, a fork of it, a short session in
 * another project, and a deliberately damaged one for `check`. Generation is deterministic
 * (seeded ids, fixed clocks), so regenerating gives the same bytes; a test holds it to that.
 */

import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { encodeCwd, readHeader, sessionFileName } from "@pi-sessions/core/internal";
import { assistant, bash, GPT5, SONNET, user } from "./demo-conversation.js";
import { writeFlaky } from "./demo-flaky.js";
import {
  CORPUS_FILES,
  createIn,
  DEMO_CWDS,
  DEMO_HOME,
  DEMO_NAMES,
  type DemoEnv,
  projectDir,
  writeDemo,
} from "./demo-setup.js";

export { CORPUS_FILES, DEMO_CWDS, DEMO_HOME, DEMO_NAMES } from "./demo-setup.js";

/** A fork of the branched session that goes on with a follow-up question. */
function writeFork(root: string, source: string): string {
  const { webshop } = DEMO_CWDS;
  const open = (env: DemoEnv) =>
    SessionManager.forkFrom(source, webshop, projectDir(root, webshop), { env });
  const file = writeDemo(
    { seed: 12, start: "2026-03-03T14:30:00.000Z", name: DEMO_NAMES.fork, open },
    (sm, clock) => {
      sm.appendMessage(
        user(clock, "Should the public API docs mention that upload() now waits for 'done'?"),
      );
      sm.appendMessage(
        assistant(
          clock,
          GPT5,
          "Yes: it changes when the promise resolves. I added a note to docs/api.md.",
          { input: 5200, output: 200, cacheRead: 4800 },
        ),
      );
    },
  );
  // The fork names its source by absolute path; use the path it would have on the demo user's
  // machine, so the bundled bytes do not depend on where the repository was checked out.
  const [first, ...rest] = readFileSync(file, "utf8").split("\n");
  const header = JSON.parse(first as string) as Record<string, unknown>;
  header.parentSession = `${DEMO_HOME}/.pi/agent/sessions/${encodeCwd(webshop)}/${basename(source)}`;
  writeFileSync(file, [JSON.stringify(header), ...rest].join("\n"), { mode: 0o600 });
  return file;
}

/** A short linear session in another project, with a shell command the user ran. */
function writeRename(root: string): string {
  const open = createIn(root, DEMO_CWDS.cliTool);
  return writeDemo(
    { seed: 13, start: "2026-02-20T16:05:00.000Z", name: DEMO_NAMES.rename, open },
    (sm, clock) => {
      sm.appendModelChange("anthropic", "claude-sonnet-4-5");
      sm.appendMessage(bash(clock, "grep -rn 'maxRetry' src | wc -l", "14"));
      sm.appendMessage(
        user(
          clock,
          "Rename the config key maxRetry to maxRetries everywhere, keeping the old key as an alias.",
        ),
      );
      sm.appendMessage(
        assistant(
          clock,
          SONNET,
          "Renamed in 14 places; loadConfig() still reads maxRetry and warns once.",
          { input: 2100, output: 330 },
        ),
      );
    },
  );
}

/**
 * A session with the damage `check` looks for: a line of garbage, a JSON line that is not an
 * object, an entry that reuses an id, and a last line cut off mid-write.
 */
function writeDamaged(root: string): string {
  const open = createIn(root, DEMO_CWDS.cliTool);
  const file = writeDemo(
    { seed: 14, start: "2026-02-21T10:00:00.000Z", name: DEMO_NAMES.damaged, open },
    (sm, clock) => {
      sm.appendMessage(user(clock, "Why does the build print a deprecation warning?"));
      sm.appendMessage(
        assistant(
          clock,
          SONNET,
          "The bundler config uses the old 'target' key; rename it to 'targets'.",
          { input: 1500, output: 90 },
        ),
      );
    },
  );
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const duplicate = lines[1] as string; // the user message again, same id
  const damaged = [
    lines[0],
    lines[1],
    "<<<<<<< HEAD (a merge conflict marker pasted into the file)",
    lines[2],
    "42",
    duplicate,
    lines[3],
    '{"type":"message","id":"9f3c","parentId"',
  ];
  writeFileSync(file, damaged.join("\n"), { mode: 0o600 });
  return file;
}

/** Copies a corpus file into its project directory under its SPEC §1.3 name. */
function copyCorpusFile(root: string, corpusDir: string, name: string): string {
  const source = join(corpusDir, name);
  const header = readHeader(source);
  if (header === null) throw new Error(`${source} has no session header`);
  const dir = projectDir(root, String(header.cwd));
  const target = join(dir, sessionFileName(String(header.timestamp), String(header.id)));
  copyFileSync(source, target);
  return target;
}

/** Writes every demo session under `root` (a sessions directory); returns their paths. */
export function writeDemoSessions(root: string, corpusDir: string): string[] {
  const flaky = writeFlaky(root);
  return [
    flaky,
    writeFork(root, flaky),
    writeRename(root),
    writeDamaged(root),
    ...CORPUS_FILES.map((name) => copyCorpusFile(root, corpusDir, name)),
  ];
}
