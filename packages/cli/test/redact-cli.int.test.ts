/**
 * `pi-sessions redact` and `export --redact`: the real bin for the command line (`--check`
 * exit codes, `-o` refusals, the report on stderr and in `--json`, `check` passing on the
 * output), and, in process, a property: planted secrets of every kind are in none of the
 * exports (Markdown, HTML, JSONL) of a redacted session.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "@pi-sessions/cli";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import {
  LEAKY_AWS_SECRET,
  LEAKY_GITHUB_TOKEN,
  leakySessionJsonl,
  plant,
  plantedSecretArb,
} from "@pi-sessions/test-utils/secrets";
import { sessionLogArb, sessionToJsonl } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runBin } from "./helpers/run-bin.js";

const GHP = LEAKY_GITHUB_TOKEN;
const AWS = LEAKY_AWS_SECRET;

/** The leaky session (a GitHub token in a prompt, an AWS key in a tool result), labelled. */
function leakySession(dir: string): string {
  const path = join(dir, "leaky.jsonl");
  writeFileSync(path, leakySessionJsonl({ label: "leaked .env" }));
  return path;
}

describe("pi-sessions redact", () => {
  it("--check exits 1 and writes nothing when something would be redacted, 0 when not", async () => {
    const dir = tempDir("pi-redact-cli-");
    const path = leakySession(dir);
    const before = readFileSync(path, "utf8");
    const found = await runBin(["redact", path, "--check", "-o", join(dir, "never.jsonl")]);
    expect(found.code).toBe(1);
    expect(found.stdout).toBe("");
    expect(found.stderr).toContain("2 secrets redacted in 2 places on 2 lines");
    expect(found.stderr).toMatch(/github-token\s+1 secret\s+1 place\s+entries a1b2c3d4/);
    expect(found.stderr).not.toContain(GHP);
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(() => readFileSync(join(dir, "never.jsonl"))).toThrow();
    const clean = join(dir, "clean.jsonl");
    writeFileSync(clean, before.replace(GHP, "nothing").replace(AWS, "nothing"));
    const none = await runBin(["redact", clean, "--check"]);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain("nothing to redact");
  });

  it("writes the redacted session to -o; check passes on it; the report goes to stderr", async () => {
    const dir = tempDir("pi-redact-cli-");
    const path = leakySession(dir);
    const out = join(dir, "shared.jsonl");
    const r = await runBin(["redact", path, "-o", out, "--paths"]);
    expect(r.code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).not.toContain(GHP);
    expect(text).not.toContain(AWS);
    expect(text).not.toContain("/home/alice");
    expect(text).toContain('"cwd":"[REDACTED:cwd#1]"');
    expect(r.stderr).toContain(`wrote ${out}`);
    const check = await runBin(["check", out]);
    expect(check.code).toBe(0);
  });

  it("--json puts the report (and the content without -o) on stdout", async () => {
    const dir = tempDir("pi-redact-cli-");
    const path = leakySession(dir);
    const r = await runBin(["redact", path, "--json", "--pattern", "leaked=incident"]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { content: string; report: { rules: { rule: string }[] } };
    expect(json.report.rules.map((x) => x.rule)).toEqual([
      "aws-secret-access-key",
      "github-token",
      "incident",
    ]);
    expect(json.content).toContain('"label":"[REDACTED:incident#1] .env"');
  });

  // Devices and FIFOs are written into, never replaced (redact-targets.int.test.ts).
  it("-o refuses the session itself and another session file; a bad pattern is exit 2", async () => {
    const dir = tempDir("pi-redact-cli-");
    const path = leakySession(dir);
    const other = join(dir, "other.jsonl");
    writeFileSync(other, readFileSync(path, "utf8"));
    for (const target of [path, other]) {
      const r = await runBin(["redact", path, "-o", target]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/refusing/);
    }
    expect(readFileSync(other, "utf8")).toBe(readFileSync(path, "utf8"));
    const bad = await runBin(["redact", path, "--pattern", "([a-z"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("bad --pattern");
  });
});

describe("pi-sessions export --redact", () => {
  it("planted secrets are in none of the exports: md, html, jsonl (numRuns 30)", async () => {
    const dir = tempDir("pi-redact-export-");
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        sessionLogArb({ maxEntries: 10, minEntries: 1 }),
        fc.array(plantedSecretArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
        async (log, secrets, picks) => {
          const { entries, planted } = plant(log.entries, secrets, picks, [
            true,
            false,
            true,
            false,
          ]);
          const path = join(dir, `s${n++}.jsonl`);
          writeFileSync(path, sessionToJsonl(log.header, entries));
          for (const format of ["md", "html", "jsonl"]) {
            let stdout = "";
            let stderr = "";
            const io = {
              stdout: { write: (t: string) => (stdout += t) },
              stderr: { write: (t: string) => (stderr += t) },
              env: { ...process.env },
              cwd: dir,
            };
            const code = await runCli(
              ["export", path, "--tree", "--format", format, "--redact"],
              io,
            );
            expect(code).toBe(0);
            for (const p of planted) {
              const s = p.secret.secret;
              const spelled = [
                s,
                JSON.stringify(s).slice(1, -1),
                s.replace(/&/g, "&amp;").replace(/</g, "&lt;"),
              ];
              for (const form of spelled) expect(stdout.includes(form)).toBe(false);
              expect(stderr.includes(s)).toBe(false);
            }
          }
        },
      ),
      fcOptions(30),
    );
  });

  it("--redact-paths also hides the file's path and working directory in the page", async () => {
    const dir = tempDir("pi-redact-export-");
    const home = join(dir, "home", "alice");
    const path = leakySession(dir);
    writeFileSync(path, readFileSync(path, "utf8").replace("/home/alice/acme", `${home}/acme`));
    const r = await runBin(["export", path, "--format", "html", "--redact-paths"]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(`${home}/acme`);
    expect(r.stdout).not.toContain(GHP);
    expect(r.stdout).toContain("[REDACTED:cwd#1]");
  });
});
