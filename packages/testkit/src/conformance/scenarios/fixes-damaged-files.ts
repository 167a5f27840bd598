/**
 * [Fix] rows of SPEC §12 about a session file changed outside the manager, each observed
 * through files in a temporary directory: W1 (a foreign writer's torn tail), W4 (unparseable
 * lines kept by the migration rewrite), W5 (and reported), W6 (non-objects), W7 (two writers),
 * W8 (the file deleted). The rows about the manager's own file operations are in
 * `fixes-file-operations.ts`. Not covered, because they cannot be observed through the API
 * without fault injection or timing: W2 (partial write after ENOSPC), W3 (atomicity of
 * rewrites), W9 (fsync), W21 (costs), W23 (a MAY).
 */
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject, SessionManagerLike } from "../../api-calls/manager-api.js";
import { equal, idsOf, ok, throws } from "../assert.js";
import { flushed, header, jsonl, userEntry, userMessage } from "../fixtures.js";
import type { Scenario } from "../types.js";
import { fileRecords } from "./files.js";
import { legacyV1 } from "./format.js";

/** [Fix] rows about files changed outside the manager, in row order. */
export const damagedFileFixScenarios: Scenario[] = [
  {
    id: "fix/W1-foreign-torn-tail",
    title:
      "an append after a foreign writer left a partial line is refused or lands on its own line",
    spec: "§6.3",
    fix: "W1",
    run(ctx) {
      const { sm, file } = flushed(ctx);
      appendFileSync(file, '{"type":"message","id":"torn');
      let id: string | undefined;
      const failed = throws(() => {
        id = sm.appendMessage(userMessage("after the tear"));
      });
      ctx.close(sm);
      const reopened = ctx.module.SessionManager.open(file);
      if (failed) equal(reopened.getEntries().length, 1, "refused: nothing was written");
      else ok(reopened.getEntry(id as string), "acknowledged entry survives a reload");
      ctx.close(reopened);
    },
  },
  {
    id: "fix/W4-rewrite-keeps-malformed",
    title: "the migration rewrite keeps malformed lines word for word, in place",
    spec: "§2.4",
    fix: "W4",
    run(ctx) {
      const [h, ...rest] = legacyV1();
      const file = join(ctx.tempDir(), "v1.jsonl");
      writeFileSync(file, jsonl([h, rest[0], "THIS LINE IS MALFORMED", ...rest.slice(1)]));
      ctx.close(ctx.module.SessionManager.open(file));
      const lines = readFileSync(file, "utf8").split("\n");
      equal(lines[2], "THIS LINE IS MALFORMED", "third line after the rewrite");
      equal((JSON.parse(lines[0] as string) as JsonObject).version, 3, "migrated");
    },
  },
  {
    id: "fix/W5-load-diagnostics",
    title: "malformed lines are reported by getLoadDiagnostics() with their line number",
    spec: "§2.1",
    fix: "W5",
    run(ctx) {
      const file = join(ctx.tempDir(), "s.jsonl");
      writeFileSync(
        file,
        jsonl([header(), userEntry("a", null, 1), "{broken", userEntry("b", "a", 2)]),
      );
      const sm = ctx.module.SessionManager.open(file) as SessionManagerLike & {
        getLoadDiagnostics?: () => unknown[];
      };
      ok(typeof sm.getLoadDiagnostics === "function", "the manager has getLoadDiagnostics()");
      const diagnostics = sm.getLoadDiagnostics?.() ?? [];
      ok(
        diagnostics.some((d) => (d as { line?: number }).line === 3),
        `a diagnostic for line 3 (${JSON.stringify(diagnostics)})`,
      );
      ctx.close(sm);
    },
  },
  {
    id: "fix/W6-scalar-last-line",
    title:
      "a scalar JSON line is malformed: leaf, context and the next parentId come from the last entry",
    spec: "§2.1",
    fix: "W6",
    run(ctx) {
      const file = join(ctx.tempDir(), "s.jsonl");
      writeFileSync(file, jsonl([header(), userEntry("a", null, 1), "42"]));
      const sm = ctx.module.SessionManager.open(file);
      equal(
        [sm.getLeafId(), sm.buildSessionContext().messages.length],
        ["a", 1],
        "leaf and context",
      );
      const id = sm.appendMessage(userMessage("next"));
      equal(sm.getEntry(id)?.parentId, "a", "parent of the next append");
      ctx.close(sm);
    },
  },
  {
    id: "fix/W7-two-writers",
    title: "a second manager on the same file never forks it silently",
    spec: "§6.3",
    fix: "W7",
    run(ctx) {
      const { sm: a, file } = flushed(ctx);
      const b = ctx.module.SessionManager.open(file);
      const fromA = a.appendMessage(userMessage("from A"));
      let fromB: string | undefined;
      const refused = throws(() => {
        fromB = b.appendMessage(userMessage("from B"));
      });
      ctx.close(a);
      ctx.close(b);
      const reopened = ctx.module.SessionManager.open(file);
      if (!refused)
        equal(reopened.getEntry(fromB as string)?.parentId, fromA, "B continued after A's entry");
      else equal(idsOf(reopened.getEntries()).length, 2, "B was refused and wrote nothing");
      ctx.close(reopened);
    },
  },
  {
    id: "fix/W8-deleted-file",
    title: "after the file is deleted, an append does not recreate it without its header",
    spec: "§1.6",
    fix: "W8",
    run(ctx) {
      const { sm, file } = flushed(ctx);
      rmSync(file);
      throws(() => sm.appendMessage(userMessage("after delete")));
      ctx.close(sm);
      if (existsSync(file))
        equal(
          (fileRecords(file)[0] as JsonObject).type,
          "session",
          "a recreated file starts with a header",
        );
    },
  },
];
