/**
 * The exporter tested with @pi-sessions/testkit: generated valid sessions (linear, bushy,
 * multi-root, unknown types and fields), damaged files (torn tails, garbage, non-object
 * lines, duplicate ids, dangling parents, cycles), legacy v1/v2 files and arbitrary text.
 * @pi-sessions/core serves as the oracle for the active branch.
 *
 * Run counts: FC_RUNS overrides them; FC_SEED (with FC_PATH) replays a failure. The example
 * reads them itself because the tarball check copies it into a project outside this workspace.
 */
import { SessionManager } from "@pi-sessions/core";
import {
  damagedSessionArb,
  legacySessionArb,
  type SessionLog,
  sessionLogArb,
  sessionToJsonl,
} from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { activeBranch, exportMarkdown, readSession, textOf } from "../src/exporter.js";

const runs = (n: number) => Number(process.env.FC_RUNS ?? n);
const params = (n: number) => ({
  numRuns: runs(n),
  ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
  ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
});

/** Valid sessions of every shape the testkit generates. */
const validLog = fc.oneof(
  sessionLogArb(),
  sessionLogArb({ shape: "bushy", multiRoot: true, unknownTypes: true, unknownFields: true }),
  sessionLogArb({ shape: "linear", maxEntries: 60, clockSkew: true }),
);

/** A well-formed export: a title line, sections, one final newline. */
function expectWellFormed(md: string): void {
  expect(md.startsWith("# ")).toBe(true);
  expect(md.endsWith("\n")).toBe(true);
  expect(md.endsWith("\n\n")).toBe(false);
}

/** The user messages core puts on the active branch, as sections show them (trailing space cut). */
function userTextsOnBranch(log: SessionLog): string[] {
  const sm = SessionManager.inMemory(log.header.cwd, undefined, [log.header, ...log.entries]);
  return sm.getBranch().flatMap((e) => {
    if (e.type !== "message" || e.message.role !== "user") return [];
    return [textOf(e.message.content).trimEnd() || "_(empty)_"];
  });
}

describe("exportMarkdown with testkit arbitraries", () => {
  it(`every user message on the active branch appears, in branch order (${runs(300)} runs)`, () => {
    fc.assert(
      fc.property(validLog, (log) => {
        const md = exportMarkdown(log.jsonl);
        expectWellFormed(md);
        let from = 0;
        for (const text of userTextsOnBranch(log)) {
          const at = md.indexOf(`## User\n\n${text}`, from);
          expect(
            at,
            `user text ${JSON.stringify(text)} after offset ${from}`,
          ).toBeGreaterThanOrEqual(0);
          from = at + 1;
        }
      }),
      params(300),
    );
  });

  it(`our branch walk agrees with core's getBranch (${runs(300)} runs)`, () => {
    fc.assert(
      fc.property(validLog, (log) => {
        const sm = SessionManager.inMemory(log.header.cwd, undefined, [log.header, ...log.entries]);
        const ours = activeBranch(readSession(log.jsonl).entries).map((e) => e.id);
        expect(ours).toEqual(sm.getBranch().map((e) => e.id));
      }),
      params(300),
    );
  });

  it(`damaged files: never throws, and damage outside the recovered entries changes nothing (${runs(300)} runs)`, () => {
    fc.assert(
      fc.property(damagedSessionArb(), (damaged) => {
        const md = exportMarkdown(damaged.jsonl);
        expectWellFormed(md);
        // The same export as for a clean file of just the entries a loader must recover.
        expect(md).toBe(exportMarkdown(sessionToJsonl(damaged.header, damaged.entries)));
      }),
      params(300),
    );
  });

  it(`legacy v1/v2 files and arbitrary text never make it throw (${runs(200)} runs)`, () => {
    fc.assert(
      fc.property(
        fc.oneof(
          legacySessionArb({ garbageLines: true, versionless: true }).map((l) => l.jsonl),
          fc.string({ unit: "binary", maxLength: 200 }),
          fc
            .array(
              fc.jsonValue().map((v) => JSON.stringify(v)),
              { maxLength: 8 },
            )
            .map((ls) => ls.join("\n")),
        ),
        (text) => expectWellFormed(exportMarkdown(text)),
      ),
      params(200),
    );
  });
});

describe("exportMarkdown on a known session", () => {
  it("prints the name, the cwd and the active branch only", () => {
    const lines = [
      { type: "session", version: 3, id: "s1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
      {
        type: "message",
        id: "a",
        parentId: null,
        timestamp: "t",
        message: { role: "user", content: "first" },
      },
      {
        type: "message",
        id: "b",
        parentId: "a",
        timestamp: "t",
        message: { role: "user", content: "abandoned" },
      },
      {
        type: "branch_summary",
        id: "c",
        parentId: "a",
        timestamp: "t",
        fromId: "b",
        summary: "tried b",
      },
      { type: "session_info", id: "d", parentId: "c", timestamp: "t", name: " Demo " },
    ];
    const text = `${lines.map((l) => JSON.stringify(l)).join("\n")}\nnot json\n`;
    expect(exportMarkdown(text)).toBe(
      "# Demo\n\n_/p_\n\n## User\n\nfirst\n\n### Summary of another branch\n\n> tried b\n",
    );
  });
});
