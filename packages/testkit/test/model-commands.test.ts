/**
 * Model-based runs (fc.commands + fc.modelRun) of every SessionManager method against the
 * testkit's reference model: our SessionManager and the reference package must both agree
 * with the model after every command. Replay a failure with FC_SEED / FC_PATH.
 */
import { SessionManager } from "@pi-sessions/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AppendLabelChangeCommand,
  AppendMessageCommand,
  AppendSessionInfoCommand,
  BranchCommand,
  CreateBranchedSessionCommand,
  runSessionModel,
  type SessionCommand,
  sessionModelProperty,
  setupSessionModel,
} from "../src/index.js";
import { params, runs } from "./arbitraries-run.js";
import { inMemoryOf, loadReference } from "./conformance-reference.js";

const NUM_RUNS = runs(200);
let reference: () => object;

beforeAll(async () => {
  reference = inMemoryOf(await loadReference());
});

describe("model-based runs (every method, up to 40 commands each)", () => {
  it(`our SessionManager agrees with the model (${NUM_RUNS} runs)`, () => {
    fc.assert(
      sessionModelProperty(() => SessionManager.inMemory("/work/project")),
      params(NUM_RUNS),
    );
  });

  it(`the reference SessionManager 1.6.0 agrees with the model (${NUM_RUNS} runs)`, () => {
    fc.assert(sessionModelProperty(reference), params(NUM_RUNS));
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

  it("runSessionModel reports a passing run with its run count and seed", () => {
    const report = runSessionModel(() => SessionManager.inMemory("/work/project"), {
      numRuns: 20,
      seed: 42,
    });
    expect(report).toEqual({ numRuns: 20, passed: 20, failed: false, seed: 42 });
  });
});
