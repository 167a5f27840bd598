/**
 * `ls`'s quick parse (`option-table.ts`, which runs `ls` without loading commander) against
 * commander's parse of the same program (`createProgram`): on every command line the quick
 * parser takes, both give the same program and command options; what it leaves alone,
 * commander answers (help and errors come from commander only).
 */

import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LS_OPTIONS } from "../src/commands/ls.js";
import { parseQuick } from "../src/io/option-table.js";
import { CliRuntime, COMMON_OPTIONS } from "../src/io/runtime.js";
import { createProgram } from "../src/program.js";

/** A runtime whose streams keep what is written. */
function quietRuntime(): CliRuntime {
  const sink = { write: () => true, isTTY: false };
  return new CliRuntime({ stdout: sink, stderr: sink, env: {}, cwd: "/" });
}

type Parsed = { program: Record<string, unknown>; command: Record<string, unknown> };

/** What commander makes of `argv` for `ls`: its options and the program's, or its error code. */
async function commanderParse(argv: readonly string[]): Promise<Parsed | string> {
  const program = await createProgram(quietRuntime(), ["ls"]);
  let command: Record<string, unknown> | undefined;
  const ls = program.commands.find((c) => c.name() === "ls");
  ls?.action((options: Record<string, unknown>) => {
    command = { ...options };
  });
  program.exitOverride();
  for (const sub of program.commands) sub.exitOverride();
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    return (error as { code?: string }).code ?? "error";
  }
  return command === undefined ? "not run" : { program: { ...program.opts() }, command };
}

const quick = (argv: readonly string[]) =>
  parseQuick(argv, "ls", COMMON_OPTIONS, [...LS_OPTIONS, ...COMMON_OPTIONS]);

/** Words a command line is made of: every option of `ls`, values, and forms left to commander. */
const wordArb = fc.constantFrom(
  "ls",
  "--all",
  "--cwd",
  "--index",
  "--no-index",
  "--dir",
  "--json",
  "/tmp/x",
  "dir",
  "",
  "-x",
  "--help",
  "-h",
  "--version",
  "--cwd=/a",
  "--alll",
  "--",
  "extra",
);

describe("ls's quick parse", () => {
  it("gives commander's options wherever it takes a command line (numRuns 400)", async () => {
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(wordArb, { maxLength: 7 }), async (words) => {
        const argv = words.includes("ls") ? words : ["ls", ...words];
        const mine = quick(argv);
        if (mine === undefined) return;
        taken++;
        expect(await commanderParse(argv)).toEqual(mine);
      }),
      fcOptions(400),
    );
    // The property says something only if plain command lines are taken.
    expect(taken).toBeGreaterThan(20);
  });

  it("takes the plain forms a listing is typed with", () => {
    expect(quick(["ls", "--all"])).toEqual({ program: {}, command: { all: true } });
    // `--dir` and `--json` are the program's on either side of `ls`, as in commander.
    expect(quick(["--dir", "d", "ls", "--no-index", "--json"])).toEqual({
      program: { dir: "d", json: true },
      command: { index: false },
    });
    expect(quick(["ls", "--index", "a", "--index", "b", "--cwd", "c"])).toEqual({
      program: {},
      command: { index: "b", cwd: "c" },
    });
  });

  it("leaves help, misspellings, other forms and missing values to commander", () => {
    for (const argv of [
      ["ls", "--help"],
      ["ls", "-h"],
      ["ls", "--alll"],
      ["ls", "--cwd=/a"],
      ["ls", "--cwd"],
      ["ls", "--cwd", "-x"],
      ["ls", "extra"],
      ["ls", "--"],
      ["--all", "ls"],
      ["--version"],
      [],
    ]) {
      expect(quick(argv)).toBeUndefined();
    }
  });
});
