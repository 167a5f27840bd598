/**
 * The program's version, in a module of its own so that `pi-sessions --version` loads nothing
 * else (`main.ts` answers it before the program is loaded).
 */

/** The program's version, printed by `--version`. */
export const VERSION = "0.1.0";
