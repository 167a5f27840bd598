/**
 * The demo's main session: a root cause found and labelled, a first fix, then a second branch
 * (with a branch summary of the first) that gets compacted, named and labelled "shipped".
 */

import { assistant, GPT5, SONNET, toolResult, user } from "./demo-conversation.js";
import { createIn, DEMO_CWDS, DEMO_NAMES, writeDemo } from "./demo-setup.js";

/**
 * The branched session: a root cause found and labelled, a first fix, then a second branch
 * (with a branch summary of the first) that gets compacted, named and labelled "shipped".
 */
export function writeFlaky(root: string): string {
  const open = createIn(root, DEMO_CWDS.webshop);
  const spec = { seed: 11, start: "2026-03-02T09:00:00.000Z", name: DEMO_NAMES.flaky, open };
  return writeDemo(spec, (sm, clock) => {
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
  });
}
