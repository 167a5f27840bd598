/**
 * `redact` keeps every byte it does not redact (SPEC X1), bytes that are not UTF-8 included: a
 * torn or foreign byte in a damaged line comes out as itself, never as U+FFFD, on stdout and
 * with `-o`.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { binCommand, CLI_DIR } from "./helpers/run-bin.js";

const GHP = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc";
const PLACEHOLDER = "[REDACTED:github-token#1]";

/** A session with a whole entry, then a damaged line holding invalid UTF-8 around a secret. */
function sessionBytes(): Buffer {
  const header = `{"type":"session","version":3,"id":"0190a000-0000-7000-8000-0000000000cc","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}\n`;
  const entry = `{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"ok é","timestamp":1}}\n`;
  return Buffer.concat([
    Buffer.from(header + entry, "utf8"),
    // A torn three-byte character, a lone continuation byte, an overlong NUL, a surrogate.
    Buffer.from([0xe2, 0x82, 0x20, 0x80, 0xc0, 0x80, 0xed, 0xa0, 0x80, 0x20]),
    Buffer.from(`{"type":"message","id":"m2","x":"${GHP}" torn\n`, "utf8"),
    Buffer.from([0xff, 0xfe, 0x0a]),
  ]);
}

/** What the redacted file must be: the input with the secret's bytes replaced, nothing else. */
function expected(input: Buffer): Buffer {
  const at = input.indexOf(GHP);
  return Buffer.concat([
    input.subarray(0, at),
    Buffer.from(PLACEHOLDER),
    input.subarray(at + GHP.length),
  ]);
}

function run(args: readonly string[]): Buffer {
  return execFileSync(process.execPath, [...binCommand(), ...args], {
    cwd: CLI_DIR,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("redact keeps bytes that are not UTF-8 (SPEC X1)", () => {
  it("to stdout and to -o FILE: only the secret's bytes change", () => {
    const dir = tempDir("pi-redact-bytes-");
    const path = join(dir, "s.jsonl");
    const input = sessionBytes();
    writeFileSync(path, input);
    expect(run(["redact", path]).equals(expected(input))).toBe(true);
    const out = join(dir, "out.jsonl");
    run(["redact", path, "-o", out]);
    expect(readFileSync(out).equals(expected(input))).toBe(true);
  });
});
