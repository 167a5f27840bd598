/**
 * The listing folds' rules and their versions cannot drift apart (SPEC §14 F2): the info and
 * shape folds, and the listing answer made of them, fold fixed inputs (the corpus and files
 * holding every case the rules decide), and what they save after each line and answer at the
 * end is hashed and compared with the hash committed for their `name@version`. A rule changed
 * without a new version fails here, before any store reuses a state the new rule would not
 * make; a new version fails until its fingerprint is committed below.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS_DIR, fingerprintProblem, foldFingerprint } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { JsonlScanner } from "../../src/format/parse.js";
import { sessionInfoCodec, sessionShapeCodec } from "../../src/store/fold-codecs.js";
import { encodeListingAnswer, listingAnswerRules } from "../../src/store/listing-answer.js";
import { SessionInfoFold } from "../../src/store/session-info.js";
import { SessionShapeFold } from "../../src/store/session-shape.js";

/** The fingerprint of each rule version, committed: a new version adds a row. */
const FINGERPRINTS: Readonly<Record<string, string>> = {
  "session-info@1": "3e374316d60c28bff5a61e8b",
  "session-shape@1": "f04011dbbe4790c513d95dac",
  "listing-answer@1 session-info@1 session-shape@1": "a998be9dc4b911ffc7f6ebdf",
};

const header = (extra: object = {}) =>
  JSON.stringify({
    type: "session",
    version: 3,
    id: "s",
    timestamp: "2025-01-01T00:00:00.000Z",
    cwd: "/p",
    ...extra,
  });
const line = (fields: object) =>
  JSON.stringify({ timestamp: "2025-01-01T00:00:01.000Z", ...fields });
const message = (id: string, parentId: string | null, msg: unknown) =>
  line({ type: "message", id, parentId, message: msg });

/** Files holding each case the folds decide, as text (not all of them sessions). */
const CASES: readonly string[] = [
  [
    header({ parentSession: "/other.jsonl" }),
    message("a", null, { role: "user", content: "first question", timestamp: 1_700_000_000_000 }),
    message("b", "a", {
      role: "assistant",
      content: [{ type: "text", text: "an" }, { type: "image" }, { type: "text" }, 7],
    }),
    message("c", "b", { role: "user", content: [{ type: "text", text: "second" }] }),
    message("d", "c", { role: "toolResult", content: "tool text" }),
    line({ type: "message", id: "e", parentId: "d" }),
    message("f", "e", { role: "user" }),
    line({ type: "session_info", id: "g", parentId: "f", name: "named" }),
    line({ type: "session_info", id: "h", parentId: "g" }),
    line({ type: "custom", id: "i", parentId: "a", customType: "x" }),
    message("j", "a", { role: "assistant", content: "late", timestamp: "not a number" }),
    "",
  ].join("\n"),
  [header(), message("a", null, { role: "user", content: "x" }), "{ torn", "[1]", ""].join("\n"),
  [
    header(),
    line({ type: "custom", id: "a", parentId: null }),
    line({ type: "custom", id: "a", parentId: null }),
    "",
  ].join("\n"),
  [
    header(),
    line({ type: "custom", id: "b", parentId: "a" }),
    line({ type: "custom", id: "a", parentId: null }),
    "",
  ].join("\n"),
  [header(), line({ type: "custom", id: "a", parentId: "a" }), ""].join("\n"),
  [header(), line({ type: "custom", parentId: null }), ""].join("\n"),
  [header(), header(), ""].join("\n"),
  [header({ version: 2 }), message("a", null, { role: "user", content: "old" }), ""].join("\n"),
  [
    header({ timestamp: "never" }),
    message("a", null, { role: "user", content: "no newline" }),
  ].join("\n"),
  [header({ id: 7 }), ""].join("\n"),
  [line({ type: "custom", id: "a", parentId: null }), ""].join("\n"),
  "",
];

/** What the folds save after each line of `text`, and the answer they give at its end. */
function fold(text: string) {
  const info = new SessionInfoFold();
  const shape = new SessionShapeFold(info);
  const scanner = new JsonlScanner(shape);
  const infoStates: (string | null)[] = [];
  const shapeStates: (string | null)[] = [];
  let stopped = false;
  const lines = text.split(/(?<=\n)/);
  for (const piece of lines) {
    stopped ||= !scanner.push(piece);
    infoStates.push(info.hasHeader ? sessionInfoCodec.encode(info.state()) : null);
    shapeStates.push(sessionShapeCodec.encode(shape.state()));
  }
  stopped ||= !scanner.end();
  const found = stopped ? null : info.finish("/sessions/s.jsonl", new Date(1_600_000_000_000));
  const answer = found && {
    info: found,
    shape: shape.finish(scanner.endsWithNewline, text.length),
  };
  return {
    infoStates,
    shapeStates,
    answer: encodeListingAnswer(answer),
    text: found?.allMessagesText ?? null,
  };
}

const inputs = [
  ...readdirSync(CORPUS_DIR)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => readFileSync(join(CORPUS_DIR, name), "utf8")),
  ...CASES,
];
const folded = inputs.map(fold);

test("the fixed inputs hold the cases the folds decide", () => {
  expect(inputs.length).toBeGreaterThanOrEqual(CASES.length + 3);
  const answers = folded.map((f) => f.answer);
  expect(answers).toContain("null"); // files that are no session
  expect(answers.some((a) => a.includes('"regular":true'))).toBe(true);
  for (const irregularity of [
    "legacy-version",
    "damaged-line",
    "extra-header",
    "missing-id",
    "duplicate-id",
    "parent-not-seen",
    "missing-newline",
  ]) {
    expect(
      answers.some((a) => a.includes(`"irregularity":"${irregularity}"`)),
      irregularity,
    ).toBe(true);
  }
});

const rules = [
  {
    key: `${sessionInfoCodec.name}@${sessionInfoCodec.version}`,
    saved: () => folded.flatMap((f) => f.infoStates),
  },
  {
    key: `${sessionShapeCodec.name}@${sessionShapeCodec.version}`,
    saved: () => folded.flatMap((f) => f.shapeStates),
  },
  { key: listingAnswerRules(), saved: () => folded.flatMap((f) => [f.answer, f.text]) },
];

for (const { key, saved } of rules) {
  test(`${key}: the fixed inputs fold to the fingerprint committed for this version`, () => {
    expect(fingerprintProblem(FINGERPRINTS, key, foldFingerprint(saved()))).toBeUndefined();
  });
}
