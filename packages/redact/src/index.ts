/**
 * @pi-sessions/redact — share-safe pi sessions. `redactSession` replaces every secret in a
 * session file with a placeholder naming its rule and leaves a valid session that pi opens and
 * resumes with the same tree (SPEC X1–X3). Rules: secretlint's recommended preset, the user's
 * patterns, opt-in paths and a high-entropy detector.
 *
 * @packageDocumentation
 */

export { parseRedactionConfig, type RedactionConfig, readRedactionConfig } from "./config.js";
export {
  type RedactionResult,
  type RedactOptions,
  redactSession,
} from "./redact/redact-session.js";
export { formatReport, type RedactionReport, type RuleReport } from "./redact/report.js";
export type { EntropyOptions } from "./rules/entropy-rule.js";
export { parsePatternArg, type UserPattern } from "./rules/pattern-rules.js";
export { describeRuleSet, type RuleSetDescription, type RuleSetEntry } from "./rules/rule-set.js";
