/**
 * The README's example, run for real: two agent processes take turns in one session through
 * the test run's server, each seeing what the other wrote, and the export is one chain.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { SessionManager } from "@pi-sessions/core";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freshSchema, pgUrl } from "./support/store.js";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

describe("examples/two-agents.ts", () => {
  it("two agent processes share one session: each sees the other's turns; the export is one chain", async () => {
    const schema = freshSchema("ex");
    const out = execFileSync(
      process.execPath,
      // A schema of this run's (dropped at its end on a server of the user's), not the default.
      [
        "--conditions=@pi-sessions/source",
        "--import",
        "tsx",
        "examples/two-agents.ts",
        pgUrl(),
        schema,
      ],
      { cwd: PACKAGE, encoding: "utf8" },
    );
    expect(out).toContain("agent-a saw 0 messages");
    expect(out).toContain("agent-b saw 2 messages");
    expect(out).toContain("agent-a saw 4 messages");
    const jsonl = out.slice(out.indexOf("{"));
    const sm = SessionManager.fromJsonl(jsonl);
    const texts = sm.getBranch().map((e) => JSON.stringify((e as { message?: unknown }).message));
    expect(sm.getEntries()).toHaveLength(6);
    expect(sm.getBranch()).toHaveLength(6); // one chain: every entry continues the one before
    expect(texts.join()).toMatch(/agent-a: my turn.*agent-b: my turn.*agent-a: my turn/);
    expect(sm.getLoadDiagnostics()).toEqual([]);
    // Written where it was told: in the run's schema, which the run drops at its end.
    const admin = new pg.Client({ connectionString: pgUrl() });
    admin.on("error", () => {});
    await admin.connect();
    const found = await admin.query(`SELECT 1 FROM "${schema}".sessions WHERE id = $1`, [
      sm.getSessionId(),
    ]);
    await admin.end();
    expect(found.rowCount).toBe(1);
  });
});
