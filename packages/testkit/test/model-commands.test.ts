/**
 * Model-based runs (fc.commands + fc.modelRun) of every SessionManager method against the
 * testkit's reference model, on every store of both implementations (memory and JSONL
 * files): each must agree with the model after every command, and what a file store wrote
 * must reopen equal. Replay a failure with FC_SEED / FC_PATH.
 */
import * as core from "@pi-sessions/core";
import { SessionManager } from "@pi-sessions/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AppendLabelChangeCommand,
  AppendMessageCommand,
  AppendSessionInfoCommand,
  BranchCommand,
  CreateBranchedSessionCommand,
  jsonlFileStore,
  type ManagerFactory,
  memoryStore,
  runSessionModel,
  runStoreModel,
  type SessionCommand,
  sessionModelProperty,
  setupSessionModel,
  storeModelProperty,
} from "../src/internal.js";
import { params, runs } from "./arbitraries-run.js";
import { inMemoryOf, loadReference } from "./conformance-reference.js";

const NUM_RUNS = runs(200);
let reference: () => object;
let referenceModule: object;

beforeAll(async () => {
  const module = await loadReference();
  reference = inMemoryOf(module);
  referenceModule = module;
});

/** Every store of both implementations, made fresh for each test (a store holds a temp dir). */
const stores = (): [string, () => ManagerFactory][] => [
  ["our memory", () => memoryStore(core)],
  ["our JSONL files", () => jsonlFileStore(core)],
  ["the reference 1.6.0's memory", () => memoryStore(referenceModule)],
  ["the reference 1.6.0's JSONL files", () => jsonlFileStore(referenceModule)],
];

describe("model-based runs (every method, up to 40 commands each)", () => {
  it(`our SessionManager agrees with the model through the synchronous property (${NUM_RUNS} runs)`, () => {
    fc.assert(
      sessionModelProperty(() => SessionManager.inMemory("/work/project")),
      params(NUM_RUNS),
    );
  });

  for (const [name, make] of stores()) {
    it(`${name} agrees with the model, and what it stored reopens equal (${NUM_RUNS} runs)`, async () => {
      const store = make();
      try {
        await fc.assert(storeModelProperty(store), params(NUM_RUNS));
      } finally {
        await store.dispose?.();
      }
    });
  }

  it("runStoreModel fails a store whose reopened session lost what was written", async () => {
    const files = jsonlFileStore(core);
    // Reopens as an empty session: the I5 check after the run must notice.
    const lossy: ManagerFactory = {
      ...files,
      name: "lossy",
      reopen: (m) => (files.reopen?.(m) ? SessionManager.inMemory("/work/project") : undefined),
    };
    const report = await runStoreModel(lossy, { numRuns: 50, seed: 7 });
    expect(report.failed).toBe(true);
    expect(report.error).toContain("lossy: the reopened session differs");
  });

  it("a hand-written sequence: labels, a branch and a branched session with recreated labels", () => {
    const user = (content: string) => ({ role: "user", content, timestamp: 1 });
    const commands: SessionCommand[] = [
      new AppendMessageCommand(user("q1")),
      new AppendLabelChangeCommand({ pick: 0 }, "start"),
      new AppendMessageCommand(user("q2")),
      new AppendSessionInfoCommand("  name \n"),
      new BranchCommand({ pick: 0 }),
      new AppendMessageCommand(user("side")),
      new AppendLabelChangeCommand({ pick: 4 }, "side"),
      new CreateBranchedSessionCommand({ pick: 4 }),
    ];
    for (const factory of [() => SessionManager.inMemory("/work/project"), reference]) {
      const setup = setupSessionModel(factory);
      for (const c of commands) c.run(setup.model, setup.real);
      // The branched session: q1, side, then the two recreated labels.
      expect(setup.model.entries.map((e) => e.type)).toEqual([
        "message",
        "message",
        "label",
        "label",
      ]);
      expect([...setup.model.labels.values()].map((l) => l.label)).toEqual(["start", "side"]);
    }
  });

  it("runSessionModel and runStoreModel report a passing run with its run count and seed", async () => {
    const report = runSessionModel(() => SessionManager.inMemory("/work/project"), {
      numRuns: 20,
      seed: 42,
    });
    expect(report).toEqual({ numRuns: 20, passed: 20, failed: false, seed: 42 });
    const stored = await runStoreModel(jsonlFileStore(core), { numRuns: 20, seed: 42 });
    expect(stored).toEqual({ numRuns: 20, passed: 20, failed: false, seed: 42 });
  });
});
