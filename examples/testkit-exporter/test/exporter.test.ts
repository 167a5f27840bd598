/**
 * The exporter tested with @pi-sessions/testkit: generated valid sessions (linear, bushy,
 * multi-root, unknown types and fields), damaged files (torn tails, garbage, non-object
 * lines, duplicate ids, dangling parents, cycles), legacy v1/v2 files and arbitrary text.
 * @pi-sessions/core serves as the oracle for the active branch.
 *
 * Run counts: FC_RUNS overrides them; FC_SEED (with FC_PATH) replays a failure. The example
 * reads them itself because the tarball check copies it into a project outside this workspace.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import {
  checkReader,
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

/** Exports every session file under a sessions root, as a tool exporting a whole folder would. */
function exportFolder(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of readdirSync(root)) {
    for (const name of readdirSync(join(root, dir))) {
      out.set(`${dir}/${name}`, exportMarkdown(readFileSync(join(root, dir, name), "utf8")));
    }
  }
  return out;
}

/** The conversation part of an export: from the first message section on. */
const conversation = (md: string) => {
  const at = md.indexOf("\n\n## ");
  return at < 0 ? "" : md.slice(at);
};

describe("exportMarkdown over whole sessions roots (testkit checkReader)", () => {
  it(`every file exports; a fork shows its source's conversation; a copy exports the same (${runs(100)} folders)`, async () => {
    const report = await checkReader(
      exportFolder,
      (exports, folder) => {
        expect([...exports.keys()].sort()).toEqual(folder.files.map((f) => f.path).sort());
        for (const file of folder.files) {
          const md = exports.get(file.path) as string;
          expectWellFormed(md);
          const source = folder.files.find((f) => f.path === file.source);
          if (!source) continue;
          const from = exports.get(source.path) as string;
          if (file.kind === "copy") expect(md, file.path).toBe(from);
          if (file.kind === "fork") expect(conversation(md), file.path).toBe(conversation(from));
        }
        return true;
      },
      { ...params(100), folder: { values: ["duplicate-lines", "line-separators", "bom"] } },
    );
    expect(report.failed, report.text).toBe(false);
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
