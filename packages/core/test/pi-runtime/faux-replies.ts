/**
 * The scripted model of the pi-runtime test: test-utils' scripted faux provider (answers from
 * what it is asked), with this flow's own plain answers.
 */
import type { FauxProviderHandle } from "@earendil-works/pi-ai";
import { scriptedFaux as scripted } from "@pi-sessions/test-utils/scripted-model";

/** The text of an assistant answer that the flow's extension replaces by a context_edit. */
export const DRAFT_ANSWER = "DRAFT: the notes mention a plan.";

/** Plain answers by prompt; any other prompt is answered with "Noted: <prompt>". */
const ANSWERS: Record<string, string> = {
  "Draft an answer I can edit.": DRAFT_ANSWER,
  "What next?": "Next we branch the session.",
};

/** A registered faux provider ("faux", models faux-1 and faux-2) answering the flow's prompts. */
export function scriptedFaux(): FauxProviderHandle {
  return scripted({ answers: ANSWERS });
}
