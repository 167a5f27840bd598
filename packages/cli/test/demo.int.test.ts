/**
 * The bundled demo: regenerating it gives the same bytes (it is deterministic and up to date),
 * and `pnpm start` runs the real program over a copy, showing every command, without
 * touching the bundled files.
 */

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { CORPUS_DIR, tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { writeDemoSessions } from "../scripts/demo-sessions.js";
import { snapshot } from "./helpers/fixtures.js";
import { CLI_DIR } from "./helpers/run-bin.js";

const DEMO = join(CLI_DIR, "demo", "sessions");

describe("demo sessions", () => {
  it("are exactly what the generator writes today", () => {
    const fresh = tempDir();
    writeDemoSessions(fresh, CORPUS_DIR);
    const bundled = snapshot(DEMO);
    const generated = snapshot(fresh);
    expect([...generated.keys()].map((p) => relative(fresh, p)).sort()).toEqual(
      [...bundled.keys()].map((p) => relative(DEMO, p)).sort(),
    );
    for (const [path, bytes] of generated) {
      const twin = bundled.get(join(DEMO, relative(fresh, path))) as Buffer;
      expect(twin.equals(bytes), relative(fresh, path)).toBe(true);
    }
  });

  it("include the corpus files byte for byte", () => {
    const bundled = [...snapshot(DEMO).entries()];
    for (const name of [
      "large-session.jsonl",
      "before-compaction.jsonl",
      "ref-1.6-branched.jsonl",
    ]) {
      const corpus = readFileSync(join(CORPUS_DIR, name));
      expect(
        bundled.some(([, bytes]) => bytes.equals(corpus)),
        name,
      ).toBe(true);
    }
  });
});

describe("pnpm start", () => {
  it("runs every command on a copy and leaves the bundled files alone", () => {
    const before = snapshot(DEMO);
    const r = spawnSync(
      process.execPath,
      [
        "--conditions=@pi-sessions/source",
        "--import",
        import.meta.resolve("tsx"),
        join(CLI_DIR, "scripts", "start.ts"),
      ],
      {
        cwd: tempDir(),
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", PI_SESSIONS_DEMO_DIR: tempDir() },
      },
    );
    expect(r.status, r.stderr).toBe(0);
    for (const command of [
      "ls --all",
      "index --verify",
      "search listener",
      "tree",
      "context",
      "usage",
      "check",
      "check Damaged example --repair",
      "migrate --dry-run",
    ]) {
      expect(r.stdout).toContain(`$ pi-sessions ${command}`);
    }
    expect(r.stdout).toContain(
      'Session 019cadc6-9a80-7b0b-ae33-47ffbfd3fdaa "Fix flaky upload test"',
    );
    expect(r.stdout).toContain("⟲ compaction");
    // The demo's index lives in the copy: verified right after `ls` built it, and searched.
    expect(r.stdout).toMatch(/index \S+pi-sessions-demo-\S+index\.sqlite: 7 files, 7 up to date/);
    expect(r.stdout).toContain("Fix it by attaching the [listener] before calling start().");
    expect(r.stdout).toContain("repaired; original saved as");
    expect(r.stdout).toContain("dry run: nothing was written");
    expect(snapshot(DEMO)).toEqual(before);
  });
});
