// The corpus location, for the suites that still import it from here; new code imports
// CORPUS_DIR from @pi-sessions/test-utils.
export { CORPUS_DIR } from "@pi-sessions/test-utils";
