/**
 * Entry point of one pi-runtime child process: `run-side.ts <root> <flow>`, with
 * child-preload.ts preloaded and PI_RUNTIME_SIDE naming the side. Builds pi's runtime over
 * the side's SessionManager in `<root>`, runs the flow, lists the sessions, and writes
 * `<root>/log.json` ({@link SideLog}). The session files stay in `<root>/agent/sessions`.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { asScript, type RecorderReport, recorderReport } from "./call-recorder.js";
import { currentSide, type FlowName, type Side } from "./child-env.js";
import {
  type FlowContext,
  type FlowResult,
  flowContext,
  runSteps,
  type Step,
} from "./flow-context.js";
import { exportFileOf, mainFlow } from "./runtime-flow.js";
import { createFlowRuntime, type FlowExtensionOptions, sideDirs } from "./runtime-setup.js";
import { shutdownWriterFlow } from "./shutdown-flow.js";
import { tickClock } from "./step-clock.js";

/** The JSON log one side writes. Dates in session infos are ISO strings (JSON). */
export interface SideLog extends FlowResult {
  readonly side: Side;
  readonly flow: FlowName;
  readonly root: string;
  readonly node: string;
  /** Files the flow wrote outside the sessions directory (`exportToJsonl`). */
  readonly extraFiles: string[];
  /**
   * Every path under `agent/sessions` (relative to the root) at the end of the flow, before
   * the runtime is disposed and the process exits: what another pi process would see then.
   */
  readonly listing: string[];
  /** `SessionManager.list(cwd)` after the flow. */
  readonly list: Record<string, unknown>[];
  /** `SessionManager.listAll()` after the flow. */
  readonly listAll: Record<string, unknown>[];
  readonly recorder: RecorderReport;
  /** Requests the faux model answered. */
  readonly fauxCalls: number;
}

const FLOWS: Record<
  FlowName,
  { steps: (ctx: FlowContext) => Step[]; extension: FlowExtensionOptions }
> = {
  main: { steps: mainFlow, extension: {} },
  "shutdown-writer": { steps: shutdownWriterFlow, extension: { writeOnShutdown: true } },
};

async function main(): Promise<void> {
  const [root, flow] = process.argv.slice(2) as [string | undefined, FlowName | undefined];
  if (!root || !flow || !(flow in FLOWS)) throw new Error("usage: run-side.ts <root> <flow>");
  const side = currentSide();
  const dirs = sideDirs(root);
  for (const dir of [dirs.agentDir, dirs.cwd, dirs.exportDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(dirs.cwd, "notes.txt"), "hello notes\nsecond line\n");
  // pi falls back to process.cwd() in places; make that the temp cwd too.
  process.chdir(dirs.cwd);

  // The first manager comes from the class pi's package exports: the shim's, on both sides.
  const initial = asScript(() => SessionManager.create(dirs.cwd));
  const { runtime, faux } = await createFlowRuntime(dirs, initial, FLOWS[flow].extension);
  const ctx = flowContext(runtime, faux, dirs);
  const result = await runSteps(ctx, FLOWS[flow].steps(ctx), side);
  tickClock();
  const listing = readdirSync(join(dirs.agentDir, "sessions"), { recursive: true })
    .map((p) => join("agent", "sessions", String(p)))
    .sort();
  const list = await asScript(() => SessionManager.list(dirs.cwd));
  const listAll = await asScript(() => SessionManager.listAll());
  await runtime.dispose();

  const log: SideLog = {
    side,
    flow,
    root,
    node: process.versions.node,
    ...result,
    extraFiles: flow === "main" ? [exportFileOf(dirs.exportDir)] : [],
    listing,
    list: JSON.parse(JSON.stringify(list)),
    listAll: JSON.parse(JSON.stringify(listAll)),
    recorder: recorderReport(),
    fauxCalls: faux.state.callCount,
  };
  writeFileSync(join(root, "log.json"), `${JSON.stringify(log, null, 2)}\n`);
}

try {
  await main();
  // pi never closes its managers, so open handles may remain; the log is complete here.
  process.exit(0);
} catch (error) {
  console.error(error);
  process.exit(1);
}
