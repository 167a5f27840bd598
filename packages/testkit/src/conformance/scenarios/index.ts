/**
 * Every deterministic conformance scenario, in the order they run.
 */
import type { Scenario } from "../types.js";
import { appendRuleScenarios } from "./append-rules.js";
import { appendScenarios } from "./appends.js";
import { contextScenarios } from "./context.js";
import { discoveryScenarios } from "./discovery.js";
import { fileScenarios } from "./files.js";
import { damagedFileFixScenarios } from "./fixes-damaged-files.js";
import { fileOperationFixScenarios } from "./fixes-file-operations.js";
import { memoryFixScenarios } from "./fixes-memory.js";
import { formatScenarios } from "./format.js";
import { sameProcessScenarios } from "./same-process.js";
import { specExampleScenarios } from "./spec-examples.js";
import { treeScenarios } from "./tree.js";

/**
 * All scenarios: spec examples, appends, tree, context, format, files, the [Fix] rows, then
 * pi's same-process flows (managers never closed, files reopened).
 */
export const ALL_SCENARIOS: readonly Scenario[] = [
  ...specExampleScenarios,
  ...appendScenarios,
  ...appendRuleScenarios,
  ...treeScenarios,
  ...contextScenarios,
  ...formatScenarios,
  ...fileScenarios,
  ...discoveryScenarios,
  ...memoryFixScenarios,
  ...damagedFileFixScenarios,
  ...fileOperationFixScenarios,
  ...sameProcessScenarios,
];
