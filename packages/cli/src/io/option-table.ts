/**
 * A command's options as data, the one definition both parsers read: commander's (help, every
 * error message, every form of an argument) through {@link addOptions}, and the quick one of
 * {@link parseQuick}, which takes only the plain forms a listing is typed with and leaves
 * everything else to commander. The quick parser exists because loading commander costs a
 * short command about as much CPU as Node's own start-up (`ls --all` on a warm index is mostly
 * start-up); it never answers differently: what it does not take, commander parses as before.
 */

import type { Command } from "commander";
import { usageError } from "./errors.js";

/** One option as commander's `.option(flags, description)` takes it. */
export interface OptionSpec {
  /** `--all`, `--cwd <dir>` (a required value) or `--no-index` (sets `index` to false). */
  readonly flags: string;
  readonly description: string;
}

/** Adds each option of `specs` to `command`, in order. */
export function addOptions(command: Command, specs: readonly OptionSpec[]): Command {
  for (const spec of specs) command.option(spec.flags, spec.description);
  return command;
}

/**
 * Refuses `--NAME VALUE` together with `--no-NAME` on `command` (exit 2, one line): they say
 * opposite things, and commander would quietly keep whichever came last. The quick parser
 * leaves such a command line to commander, which then says this.
 */
export function refuseBothForms(command: Command, name: string): Command {
  const seen = new Set<string>();
  const given = (form: string) => () => {
    seen.add(form);
    if (seen.size === 2) throw usageError(`give --${name} or --no-${name}, not both`);
  };
  command.on(`option:${name}`, given(name));
  command.on(`option:no-${name}`, given(`no-${name}`));
  return command;
}

/** What an option's flags mean to the quick parser. */
interface QuickFlag {
  /** The key commander gives it (`--no-index` → `index`, `--foo-bar` → `fooBar`). */
  readonly key: string;
  /** It takes a value (`<value>`). */
  readonly takesValue: boolean;
  /** It is a `--no-` flag: sets its key to false. */
  readonly negates: boolean;
}

/** The long flag of `spec` and what it means; `undefined` for forms the quick parser leaves alone. */
function quickFlag(spec: OptionSpec): [string, QuickFlag] | undefined {
  const match = /^(--[a-z][a-z-]*)(?: <[a-z-]+>)?$/.exec(spec.flags);
  if (match === null) return undefined;
  const flag = match[1] as string;
  const negates = flag.startsWith("--no-");
  const name = flag.slice(negates ? 5 : 2);
  const key = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return [flag, { key, takesValue: spec.flags.includes(" <"), negates }];
}

/** The flags of `specs` the quick parser takes. */
function quickFlags(specs: readonly OptionSpec[]): Map<string, QuickFlag> {
  const flags = new Map<string, QuickFlag>();
  for (const spec of specs) {
    const flag = quickFlag(spec);
    if (flag !== undefined) flags.set(flag[0], flag[1]);
  }
  return flags;
}

/** What {@link parseQuick} made of a command line. */
export interface QuickParse {
  /** The options given before the command name (commander's program options). */
  readonly program: Record<string, string | boolean>;
  /** The options given after it. */
  readonly command: Record<string, string | boolean>;
}

/**
 * `argv` parsed as commander would parse `program [programSpecs…] command [commandSpecs…]`
 * (the program's options taken by the program on either side of the command name) when it holds nothing but those options in their plain forms: `--flag`, `--no-flag`,
 * `--name value` with a value that does not start with `-`, each as often as wished (the last
 * wins, as in commander), but not a flag and its `--no-` form together. `undefined` for anything else (help, `--version`, `--name=value`, a
 * short flag, a value starting with `-`, an argument, `--`, an unknown or misspelt option, a
 * missing value): commander then parses it and says what it says.
 */
export function parseQuick(
  argv: readonly string[],
  command: string,
  programSpecs: readonly OptionSpec[],
  commandSpecs: readonly OptionSpec[],
): QuickParse | undefined {
  const programFlags = quickFlags(programSpecs);
  const commandFlags = quickFlags(commandSpecs);
  const program: Record<string, string | boolean> = {};
  const options: Record<string, string | boolean> = {};
  // Keys given in both forms (`--index F --no-index`): commander refuses those (refuseBothForms).
  const forms = new Map<string, boolean>();
  let named = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!named && arg === command) {
      named = true;
      continue;
    }
    // As commander does by default: the program's options are its own wherever they stand,
    // before the command name or after it; the command's, only after it.
    const programFlag = programFlags.get(arg);
    const flag = programFlag ?? (named ? commandFlags.get(arg) : undefined);
    if (flag === undefined) return undefined;
    const into = programFlag !== undefined ? program : options;
    if (forms.get(flag.key) === !flag.negates) return undefined;
    forms.set(flag.key, flag.negates);
    if (!flag.takesValue) {
      into[flag.key] = !flag.negates;
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith("-")) return undefined;
    into[flag.key] = value;
    i++;
  }
  return named ? { program, command: options } : undefined;
}
