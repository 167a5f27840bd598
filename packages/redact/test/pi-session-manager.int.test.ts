/**
 * SPEC X1 through pi itself: pi 1.6.0's `SessionManager` (npm `@earendil-works/pi-coding-agent`)
 * opens the redacted file with the same entries, tree, leaf and labels as the original (labels
 * and names with their secrets replaced), and resumes it: an appended message lands on the
 * leaf and is there when the file is opened again.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { redactSession } from "@pi-sessions/redact";
import { fcOptions, loadReference, tempDir } from "@pi-sessions/test-utils";
import { plant, plantedSecretArb } from "@pi-sessions/test-utils/secrets";
import { sessionLogArb, sessionToJsonl } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

interface TreeNode {
  entry: { id: string };
  children: TreeNode[];
}
interface PiManager {
  getEntries(): { id: string; parentId: string | null; type: string }[];
  getLeafId(): string | null;
  getLabel(id: string): string | undefined;
  getTree(): TreeNode[];
  getSessionName(): string | undefined;
  appendMessage(message: { role: "user"; content: string; timestamp: number }): string;
}
interface PiModule {
  SessionManager: { open(path: string, sessionDir?: string): PiManager };
}

const shape = (nodes: TreeNode[]): unknown => nodes.map((n) => [n.entry.id, shape(n.children)]);

describe("pi 1.6.0 opens and resumes a redacted session", () => {
  it("same entries, tree, leaf, labels and name; an append lands on the leaf (numRuns 40)", async () => {
    const { SessionManager } = await loadReference<PiModule>();
    const dir = tempDir("pi-redact-pi-");
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        sessionLogArb({ maxEntries: 14, minEntries: 1 }),
        fc.array(plantedSecretArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
        async (log, secrets, picks) => {
          const { entries, planted } = plant(log.entries, secrets, picks, [
            true,
            false,
            true,
            false,
          ]);
          const input = sessionToJsonl(log.header, entries);
          const r = await redactSession(input);
          expect(r.report.secrets).toBeGreaterThanOrEqual(planted.length > 0 ? 1 : 0);
          const original = join(dir, `o${n}.jsonl`);
          const redacted = join(dir, `r${n++}.jsonl`);
          writeFileSync(original, input);
          writeFileSync(redacted, r.text);
          const a = SessionManager.open(original, dir);
          const b = SessionManager.open(redacted, dir);
          expect(b.getEntries().map((e) => [e.id, e.parentId, e.type])).toEqual(
            a.getEntries().map((e) => [e.id, e.parentId, e.type]),
          );
          expect(shape(b.getTree())).toEqual(shape(a.getTree()));
          expect(b.getLeafId()).toBe(a.getLeafId());
          for (const e of a.getEntries()) {
            const label = a.getLabel(e.id);
            expect(b.getLabel(e.id)).toBe(label === undefined ? undefined : r.redactText(label));
          }
          const name = a.getSessionName();
          expect(b.getSessionName()).toBe(name === undefined ? undefined : r.redactText(name));
          // Resume: append on the leaf, open again.
          const leaf = b.getLeafId();
          const id = b.appendMessage({ role: "user", content: "resumed", timestamp: Date.now() });
          const again = SessionManager.open(redacted, dir);
          const last = again.getEntries().at(-1);
          expect(last?.id).toBe(id);
          expect(last?.parentId).toBe(leaf);
          expect(readFileSync(redacted, "utf8").startsWith(r.text.trimEnd())).toBe(true);
          for (const p of planted)
            expect(readFileSync(redacted, "utf8").includes(p.secret.secret)).toBe(false);
        },
      ),
      fcOptions(40),
    );
  });
});
