/**
 * A session opened from a vouched layout (`columnsFor`, what pi's launcher wires to the index)
 * is the session a checked open gives; a source that fails, or whose layout the file does not
 * bear out where core can tell cheaply (the header's line, a record the load decodes, arrays
 * that disagree), is not taken: the file is read and checked as without it.
 */
import { readFileSync } from "node:fs";
import { type ColumnsFor, SessionManager, type VouchedLayout } from "@pi-sessions/core";
import { tempDir, withEnv } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { COLUMNS_FROM_BYTES_ENV } from "../core-parts.js";
import { assistant, user } from "../persist/helpers.js";

withEnv(COLUMNS_FROM_BYTES_ENV, "0");

/** A written session with a label, a name, a branch and a root entry. */
function sessionFile(): string {
  const sm = SessionManager.create("/tmp/vouched", tempDir());
  const first = sm.appendMessage(user("question 0"));
  sm.appendMessage(assistant("answer 0"));
  sm.appendLabelChange(first, "start");
  sm.appendSessionInfo("Vouched");
  sm.branch(first);
  sm.appendMessage(user("another way"));
  sm.close();
  return sm.getSessionFile() as string;
}

/** The layout of `file` as an honest source gives it, read from the file itself. */
function layoutOf(file: string): VouchedLayout {
  const text = readFileSync(file);
  const layout = {
    size: text.length,
    headerLine: 1,
    headerOffset: 0,
    headerLength: text.indexOf(10),
    lines: [] as number[],
    offsets: [] as number[],
    lengths: [] as number[],
    ids: [] as string[],
    parents: [] as (string | null)[],
    types: [] as (string | null)[],
    roles: [] as (string | undefined)[],
  };
  let start = layout.headerLength + 1;
  for (let line = 2; start < text.length; line++) {
    const end = text.indexOf(10, start);
    const record = JSON.parse(text.toString("utf8", start, end));
    layout.lines.push(line);
    layout.offsets.push(start);
    layout.lengths.push(end - start);
    layout.ids.push(record.id);
    layout.parents.push(record.parentId);
    layout.types.push(record.type);
    layout.roles.push(record.message?.role);
    start = end + 1;
  }
  return layout;
}

/** What a manager answers about its session. */
function answers(sm: SessionManager) {
  return {
    header: sm.getHeader(),
    entries: sm.getEntries(),
    tree: sm.getTree(),
    leaf: sm.getLeafId(),
    branch: sm.getBranch(),
    context: sm.buildSessionContext(),
    name: sm.getSessionName(),
    label: sm.getLabel(sm.getEntries()[0]?.id as string),
    diagnostics: sm.getLoadDiagnostics(),
  };
}

/** Opens `file` with `columnsFor`; its answers, and whether the source was asked. */
function openWith(file: string, columnsFor: ColumnsFor) {
  let asked = 0;
  const sm = SessionManager.open(file, undefined, undefined, {
    columnsFor: (path, stats) => {
      asked++;
      return columnsFor(path, stats);
    },
  });
  try {
    return { answers: answers(sm), asked };
  } finally {
    sm.close();
  }
}

describe("opening from a vouched layout", () => {
  it("gives the checked open's session, and appends continue the file", () => {
    const file = sessionFile();
    const checked = SessionManager.open(file);
    const expected = answers(checked);
    checked.close();
    const opened = openWith(file, () => layoutOf(file));
    expect(opened.asked).toBe(1);
    expect(opened.answers).toEqual(expected);
    const sm = SessionManager.open(file, undefined, undefined, {
      columnsFor: () => layoutOf(file),
    });
    sm.appendMessage(user("appended after a vouched open"));
    sm.close();
    expect(readFileSync(file, "utf8").trimEnd().split("\n").at(-1)).toContain("appended after");
    expect(SessionManager.open(file).getEntries()).toEqual(sm.getEntries());
  });

  it("falls back to the checked open when the source fails or its layout is not borne out", () => {
    const file = sessionFile();
    const checked = SessionManager.open(file);
    const expected = answers(checked);
    checked.close();
    const wrong: ((layout: VouchedLayout) => VouchedLayout)[] = [
      (l) => ({ ...l, headerOffset: l.offsets[0] as number }), // the header is not there
      (l) => ({ ...l, ids: l.ids.map((id, i) => (l.types[i] === "label" ? `${id}x` : id)) }),
      (l) => ({ ...l, lines: Array.from(l.lines).slice(1) }), // arrays that disagree
    ];
    const failing: ColumnsFor[] = [
      () => {
        throw new Error("index trouble");
      },
      () => undefined,
      ...wrong.map((spoil) => () => spoil(layoutOf(file))),
    ];
    for (const columnsFor of failing) {
      const opened = openWith(file, columnsFor);
      expect(opened.asked).toBe(1);
      expect(opened.answers).toEqual(expected);
    }
  });
});
