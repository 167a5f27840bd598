/**
 * The rules key every row is made under (SPEC §14 F2), apart from the listing folds themselves
 * so that checking a row's key (`settled.ts`) loads their versions and not the folds.
 */

import {
  foldRulesKey,
  listingAnswerRules,
  sessionInfoCodec,
  sessionShapeCodec,
} from "@pi-sessions/core/internal";
import { usageTotalsRule } from "@pi-sessions/plugins";

/**
 * The rules every row is made under: the listing answer's (its encoding and the two folds) and
 * the usage projection's (its `usageTotalsRule`), as the folds declare them now. A row saved under another key is indexed again from
 * the file's start (SPEC §14 F2).
 */
export function indexRules(): string {
  // Asked for every row a listing checks: remade only when a version moved.
  const versions = `${sessionInfoCodec.version} ${sessionShapeCodec.version} ${usageTotalsRule.version}`;
  if (versions !== rulesMemo.versions) {
    rulesMemo = { versions, rules: `${listingAnswerRules()} ${foldRulesKey([usageTotalsRule])}` };
  }
  return rulesMemo.rules;
}

let rulesMemo = { versions: "", rules: "" };
