/**
 * The bundled demo sessions (`demo/sessions/`): copies of the three real corpus files plus
 * generated ones — a branched, compacted, labelled session, a fork of it, a short session in
 * another project, and a deliberately damaged one for `check`. Generation is deterministic
 * (seeded ids, fixed clocks), so regenerating gives the same bytes; a test holds it to that.
 */

import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import {
  createDeterministicEnv,
  encodeCwd,
  readHeader,
  SessionManager,
  sessionFileName,
} from "@pi-sessions/core";
import {
  assistant,
  bash,
  GPT5,
  MessageClock,
  SONNET,
  toolResult,
  user,
} from "./demo-conversation.js";

/** The working directories of the generated sessions. */
export const DEMO_CWDS = {
  webshop: "/home/dev/webshop",
  cliTool: "/home/dev/cli-tool",
} as const;

/** The home directory of the demo user (the cwds above lie in it). */
export const DEMO_HOME = "/home/dev";

/** Names of the generated sessions (what `tree <name>` accepts). */
export const DEMO_NAMES = {
  flaky: "Fix flaky upload test",
  fork: "Upload API follow-up",
  rename: "Rename config keys",
  damaged: "Damaged example",
} as const;

/** The corpus files bundled with the demo. */
export const CORPUS_FILES = [
  "large-session.jsonl",
  "before-compaction.jsonl",
  "ref-1.6-branched.jsonl",
] as const;

function envFor(seed: number, start: string) {
  return createDeterministicEnv({ seed, startMs: Date.parse(start), stepMs: 1500 });
}

/** The project directory of a cwd under a sessions root, created. */
function projectDir(root: string, cwd: string): string {
  const dir = join(root, encodeCwd(cwd));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The branched session: a root cause found and labelled, a first fix, then a second branch
 * (with a branch summary of the first) that gets compacted, named and labelled "shipped".
 */
function writeFlaky(root: string): string {
  const env = envFor(11, "2026-03-02T09:00:00.000Z");
  const clock = new MessageClock("2026-03-02T09:00:00.000Z");
  const sm = SessionManager.create(DEMO_CWDS.webshop, projectDir(root, DEMO_CWDS.webshop), { env });
  sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  sm.appendThinkingLevelChange("medium");
  sm.appendMessage(
    user(clock, "The upload test fails about one run in ten. Can you find out why?"),
  );
  sm.appendMessage(
    assistant(
      clock,
      SONNET,
      "",
      { input: 2400, output: 180 },
      {
        id: "call_1",
        name: "bash",
        args: { command: "npm test -- upload --repeat 20" },
        thinking: "Run it repeatedly first to see the failure.",
      },
    ),
  );
  sm.appendMessage(
    toolResult(clock, "call_1", "bash", "18 passed, 2 failed: timeout waiting for 'done' event"),
  );
  const cause = sm.appendMessage(
    assistant(
      clock,
      SONNET,
      "Found it: the test attaches its 'done' listener after start() resolves. When the upload finishes first, the event fires before anyone listens.",
      { input: 3100, output: 240, cacheRead: 2200 },
    ),
  );
  sm.appendLabelChange(cause, "root cause");
  sm.appendMessage(user(clock, "Fix it by attaching the listener before calling start()."));
  sm.appendMessage(
    assistant(
      clock,
      SONNET,
      "",
      { input: 3500, output: 310, cacheRead: 3000 },
      {
        id: "call_2",
        name: "edit",
        args: {
          path: "test/upload.test.ts",
          oldText: "await start();\nonce('done')",
          newText: "const done = once('done');\nawait start();\nawait done",
        },
      },
    ),
  );
  sm.appendMessage(toolResult(clock, "call_2", "edit", "Edited test/upload.test.ts"));
  sm.appendMessage(
    assistant(clock, SONNET, "Done: the listener is attached first; 50 of 50 runs pass.", {
      input: 3900,
      output: 90,
      cacheRead: 3400,
    }),
  );
  // Go back to the root cause and try the other fix, summarising the abandoned branch.
  sm.branchWithSummary(
    cause,
    "Abandoned branch: fixed the test by attaching the listener first. It works, but every caller of upload() can hit the same race.",
  );
  sm.appendModelChange("openai", "gpt-5");
  const second = sm.appendMessage(
    user(clock, "Instead, make upload() resolve only after 'done', so no caller can race."),
  );
  sm.appendMessage(
    assistant(
      clock,
      GPT5,
      "",
      { input: 4200, output: 420 },
      {
        id: "call_3",
        name: "edit",
        args: {
          path: "src/upload.ts",
          oldText: "return start();",
          newText: "await start();\nreturn once('done');",
        },
      },
    ),
  );
  sm.appendMessage(toolResult(clock, "call_3", "edit", "Edited src/upload.ts"));
  sm.appendMessage(
    assistant(
      clock,
      GPT5,
      "upload() now resolves after 'done'. The old test passes unchanged, 50 of 50.",
      {
        input: 4600,
        output: 150,
        cacheRead: 4000,
      },
    ),
  );
  sm.appendCompaction(
    "The upload test raced: its 'done' listener was attached after start() resolved. upload() now awaits 'done' itself, so every caller is safe; the test passes 50/50.",
    second,
    9800,
  );
  sm.appendMessage(user(clock, "Add a changelog entry for this."));
  const shipped = sm.appendMessage(
    assistant(
      clock,
      GPT5,
      "Added to CHANGELOG.md under 'Fixed': upload() resolves after the upload completes.",
      {
        input: 1900,
        output: 120,
      },
    ),
  );
  sm.appendLabelChange(shipped, "shipped");
  sm.appendCustomEntry("todo-state", { open: 0, done: 3 });
  sm.appendSessionInfo(DEMO_NAMES.flaky);
  const file = sm.getSessionFile() as string;
  sm.close();
  return file;
}

/** A fork of the branched session that goes on with a follow-up question. */
function writeFork(root: string, source: string): string {
  const env = envFor(12, "2026-03-03T14:30:00.000Z");
  const clock = new MessageClock("2026-03-03T14:30:00.000Z");
  const sm = SessionManager.forkFrom(
    source,
    DEMO_CWDS.webshop,
    projectDir(root, DEMO_CWDS.webshop),
    { env },
  );
  sm.appendMessage(
    user(clock, "Should the public API docs mention that upload() now waits for 'done'?"),
  );
  sm.appendMessage(
    assistant(
      clock,
      GPT5,
      "Yes: it changes when the promise resolves. I added a note to docs/api.md.",
      {
        input: 5200,
        output: 200,
        cacheRead: 4800,
      },
    ),
  );
  sm.appendSessionInfo(DEMO_NAMES.fork);
  const file = sm.getSessionFile() as string;
  sm.close();
  // The fork names its source by absolute path; use the path it would have on the demo user's
  // machine, so the bundled bytes do not depend on where the repository was checked out.
  const [first, ...rest] = readFileSync(file, "utf8").split("\n");
  const header = JSON.parse(first as string) as Record<string, unknown>;
  header.parentSession = `${DEMO_HOME}/.pi/agent/sessions/${encodeCwd(DEMO_CWDS.webshop)}/${basename(source)}`;
  writeFileSync(file, [JSON.stringify(header), ...rest].join("\n"), { mode: 0o600 });
  return file;
}

/** A short linear session in another project, with a shell command the user ran. */
function writeRename(root: string): string {
  const env = envFor(13, "2026-02-20T16:05:00.000Z");
  const clock = new MessageClock("2026-02-20T16:05:00.000Z");
  const sm = SessionManager.create(DEMO_CWDS.cliTool, projectDir(root, DEMO_CWDS.cliTool), { env });
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
      {
        input: 2100,
        output: 330,
      },
    ),
  );
  sm.appendSessionInfo(DEMO_NAMES.rename);
  const file = sm.getSessionFile() as string;
  sm.close();
  return file;
}

/**
 * A session with the damage `check` looks for: a line of garbage, a JSON line that is not an
 * object, an entry that reuses an id, and a last line cut off mid-write.
 */
function writeDamaged(root: string): string {
  const env = envFor(14, "2026-02-21T10:00:00.000Z");
  const clock = new MessageClock("2026-02-21T10:00:00.000Z");
  const sm = SessionManager.create(DEMO_CWDS.cliTool, projectDir(root, DEMO_CWDS.cliTool), { env });
  sm.appendMessage(user(clock, "Why does the build print a deprecation warning?"));
  sm.appendMessage(
    assistant(
      clock,
      SONNET,
      "The bundler config uses the old 'target' key; rename it to 'targets'.",
      {
        input: 1500,
        output: 90,
      },
    ),
  );
  sm.appendSessionInfo(DEMO_NAMES.damaged);
  const file = sm.getSessionFile() as string;
  sm.close();
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
