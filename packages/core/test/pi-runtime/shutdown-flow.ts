/**
 * The second flow of the pi-runtime test: an extension that saves its state with
 * `pi.appendEntry` on `session_shutdown` (a pattern extensions.md recommends for state that
 * survives restarts), while pi reopens files this process wrote.
 *
 * On a resume of the current file, pi opens the new manager first and shuts the old
 * session down afterwards, so the old manager appends the extension's entry after the new
 * one has read the file. pi's manager does not notice: its next entry continues from the
 * leaf it read, and the extension's entry ends up on a branch of its own (W7's silent fork).
 */
import { type FlowContext, newSessionStep, resumeFirstStep, type Step } from "./flow-context.js";

/** The steps of the shutdown-writer flow (see the module comment). */
export function shutdownWriterFlow(ctx: FlowContext): Step[] {
  const { runtime, prompt, fileOf } = ctx;
  let firstFile = "";
  return [
    [
      "prompt with a bash tool call",
      async () => {
        await prompt("List the files here.");
        firstFile = fileOf();
      },
    ],
    [
      "reopen the same file (switchSession) while the old session's shutdown writes, prompt",
      async () => {
        await runtime.switchSession(fileOf());
        await prompt("Still there after reopening?");
      },
    ],
    newSessionStep(ctx, "newSession (/new) while the old session's shutdown writes, prompt"),
    resumeFirstStep(ctx, () => firstFile),
  ];
}
