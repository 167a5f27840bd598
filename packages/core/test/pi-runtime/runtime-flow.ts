/**
 * The main scripted flow of the pi-runtime test, run identically over pi's SessionManager
 * and ours. Every step is something a pi user or extension does: prompts answered with real
 * tool calls, model and thinking changes, extension writes, naming, compaction, tree
 * navigation, labels, reopening, fork, clone, /new, /resume, forkFrom, export and import.
 */
import { join } from "node:path";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { asScript } from "./call-recorder.js";
import { type FlowContext, newSessionStep, resumeFirstStep, type Step } from "./flow-context.js";
import { STAMP_COMMAND } from "./runtime-setup.js";

/** Where the main flow's `exportToJsonl` writes (the file is imported again). */
export function exportFileOf(exportDir: string): string {
  return join(exportDir, "exported.jsonl");
}

/** The steps of the main flow (see the module comment). */
export function mainFlow(ctx: FlowContext): Step[] {
  const { runtime, faux, dirs, session, prompt, fileOf, leafId, findEntry, byText } = ctx;
  const exportFile = exportFileOf(dirs.exportDir);
  let firstFile = "";
  let notesAnswer = "";
  return [
    ["prompt with a bash tool call", () => prompt("List the files here.")],
    [
      "prompt with a read tool call",
      async () => {
        await prompt("Read notes.txt.");
        firstFile = fileOf();
        notesAnswer = leafId();
      },
    ],
    [
      "model and thinking-level change",
      async () => {
        const model = faux.getModel("faux-2");
        if (!model) throw new Error("flow: faux-2 missing");
        await session().setModel(model);
        session().setThinkingLevel("high");
      },
    ],
    [
      "extension command: appendEntry, sendMessage, setLabel",
      () => prompt(`/${STAMP_COMMAND} ${notesAnswer} notes-read`),
    ],
    ["extension turn_end proposes a context_edit", () => prompt("Draft an answer I can edit.")],
    ["setSessionName", async () => session().setSessionName("Runtime flow")],
    [
      "compact (faux writes the summary)",
      async () => {
        await session().compact();
      },
    ],
    ["prompt after compaction", () => prompt("What next?")],
    [
      "navigateTree without summary, then prompt on the new branch",
      async () => {
        await session().navigateTree(byText("user", "Read notes.txt."), { summarize: false });
        await prompt("Count the lines of notes.txt.");
      },
    ],
    [
      "navigateTree with summary and label",
      async () => {
        const target = byText("assistant", "Next we branch the session.");
        await session().navigateTree(target, { summarize: true, label: "main-line" });
      },
    ],
    [
      "labels: clear one, set one on the compaction",
      async () => {
        await prompt(`/${STAMP_COMMAND} ${notesAnswer} -`);
        await prompt(`/${STAMP_COMMAND} ${findEntry((e) => e.type === "compaction")} compacted`);
      },
    ],
    [
      "reopen the same file (switchSession), resume, prompt",
      async () => {
        await runtime.switchSession(fileOf());
        await prompt("Still there after reopening?");
      },
    ],
    [
      "fork before a user message (createBranchedSession), prompt",
      async () => {
        await runtime.fork(byText("user", "What next?"));
        await prompt("Forked: what now?");
      },
    ],
    [
      "clone at the leaf, prompt",
      async () => {
        await runtime.fork(leafId(), { position: "at" });
        await prompt("Cloned: what now?");
      },
    ],
    newSessionStep(ctx),
    resumeFirstStep(ctx, () => firstFile),
    [
      "SessionManager.forkFrom the first session, switch to it, prompt",
      async () => {
        const forked = asScript(() => SessionManager.forkFrom(firstFile, dirs.cwd));
        const path = asScript(() => forked.getSessionFile());
        if (!path) throw new Error("flow: forkFrom gave no file");
        await runtime.switchSession(path);
        await prompt("In the forkFrom copy.");
      },
    ],
    [
      "exportToJsonl, importFromJsonl, prompt",
      async () => {
        session().exportToJsonl(exportFile);
        await runtime.importFromJsonl(exportFile);
        await prompt("In the imported copy.");
      },
    ],
  ];
}
