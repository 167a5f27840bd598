/**
 * @pi-sessions/test-utils — what the workspace's tests share instead of writing it per suite:
 * fast-check run settings from `FC_RUNS`/`FC_SEED`/`FC_PATH`, temp directories removed after
 * use, environment variables set for some tests, the reference session module, the corpus
 * location, fingerprints of versioned fold rules, and builders of pi's message and usage
 * shapes. Private: never published. This entry loads vitest (the temp-dir hooks), so
 * scripts and benchmarks that run outside a test import the vitest-free modules by their own
 * entries: `@pi-sessions/test-utils/corpus`, `/reference` and `/pi-messages`.
 *
 * @packageDocumentation
 */

export { CORPUS_DIR, corpusFile } from "./corpus.js";
export { runWithEnv, withEnv } from "./env-var.js";
export type { FcOptions } from "./fc-options.js";
export { fcOptions, fcRuns } from "./fc-options.js";
export { fingerprintProblem, foldFingerprint } from "./fold-fingerprint.js";
export type {
  AssistantFields,
  AssistantMessageFixture,
  TextBlock,
  TokenCounts,
  TokenPrices,
  UsageRecord,
  UserMessageFixture,
} from "./pi-messages.js";
export {
  assistantMessage,
  SONNET_PRICES,
  textBlock,
  USAGE_TOKEN_FIELDS,
  usageRecord,
  userMessage,
} from "./pi-messages.js";
export { loadReference, REFERENCE_SESSION_MODULE } from "./reference.js";
export { removeTempDir, tempDir } from "./temp-dir.js";
