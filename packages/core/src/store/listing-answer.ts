/**
 * A file's finished listing answer (its {@link SessionInfo} and {@link SessionShape}) as one
 * compact text, so that a store answers a listing for an unchanged file without finishing the
 * folds again. The transcript text is not in it (a store keeps it apart and reads it only when
 * wanted). The encoding is this module's, next to the folds whose answer it holds; its
 * version moves with theirs (SPEC §14 F2).
 */

import type { SessionInfo } from "../schema/types.js";
import { sessionInfoCodec, sessionShapeCodec } from "./fold-codecs.js";
import { foldRulesKey } from "./listing-folds.js";
import type { SessionShape } from "./session-shape.js";

/** A listed file's answer: its info and its shape. */
export interface ListingAnswer {
  readonly info: SessionInfo;
  readonly shape: SessionShape;
}

/**
 * The info's fields in the order core's fold writes them (`ls --json` prints them in this
 * order), without `path` (the store's) and the text; `null` for an absent name or parent and
 * for an Invalid Date (JSON has no NaN).
 */
type StoredInfo = [
  id: string,
  cwd: string,
  name: string | null,
  parentSessionPath: string | null,
  created: number | null,
  modified: number | null,
  messageCount: number,
  firstMessage: string,
];

/** The stored form: the info and the shape, or `null` for a file that is no session. */
type Stored = { readonly i: StoredInfo; readonly s: SessionShape } | null;

/** The version of this encoding itself; the answer's rules key adds the folds' versions. */
const ANSWER_VERSION = 1;

/**
 * The rules a stored answer is made under: this encoding's version and the versions of the
 * info and shape folds that made the answer. A store keeps it beside the answer and reuses
 * the answer only under the same key. Read from the codecs at each call, so it follows them.
 */
export function listingAnswerRules(): string {
  return foldRulesKey([
    { name: "listing-answer", version: ANSWER_VERSION },
    sessionInfoCodec,
    sessionShapeCodec,
  ]);
}

const time = (date: Date): number | null => {
  const ms = date.getTime();
  return Number.isNaN(ms) ? null : ms;
};

/** The text of a file's answer (`null`: the file is no session). */
export function encodeListingAnswer(answer: ListingAnswer | null): string {
  if (answer === null) return "null";
  const { info, shape } = answer;
  const stored: Stored = {
    i: [
      info.id,
      info.cwd,
      info.name ?? null,
      info.parentSessionPath ?? null,
      time(info.created),
      time(info.modified),
      info.messageCount,
      info.firstMessage,
    ],
    s: shape,
  };
  return JSON.stringify(stored);
}

/**
 * The answer a stored text gives for `path`, built exactly as core's fold builds its info
 * (every key present, an absent name or parent as `undefined`); `allMessagesText` is its joined
 * text, or what reads it on first use. The info holds it as an accessor of its own, in the same
 * place among its keys (equality, spreading and `JSON.stringify` see what a plain field shows),
 * that reads once and keeps what it read; an assignment replaces it, as on a plain field.
 */
export function decodeListingAnswer(
  text: string,
  path: string,
  allMessagesText: string | (() => string),
): ListingAnswer | null {
  const stored = JSON.parse(text) as Stored;
  if (stored === null) return null;
  const [id, cwd, name, parent, created, modified, messageCount, firstMessage] = stored.i;
  let load = typeof allMessagesText === "string" ? undefined : allMessagesText;
  let kept = typeof allMessagesText === "string" ? allMessagesText : "";
  const info: SessionInfo = {
    path,
    id,
    cwd,
    name: name ?? undefined,
    parentSessionPath: parent ?? undefined,
    created: new Date(created ?? Number.NaN),
    modified: new Date(modified ?? Number.NaN),
    messageCount,
    firstMessage,
    get allMessagesText(): string {
      if (load !== undefined) {
        kept = load();
        load = undefined;
      }
      return kept;
    },
    set allMessagesText(value: string) {
      load = undefined;
      kept = value;
    },
  };
  return { info, shape: stored.s };
}

/** The fields `ls` shows of a stored answer, without building an info (no `Date`s). */
export interface ListingSummary {
  readonly id: string;
  readonly cwd: string;
  readonly name: string | null;
  readonly parentSessionPath: string | null;
  readonly created: number | null;
  /** Ms since the epoch, `null` for an Invalid Date. */
  readonly modified: number | null;
  readonly messageCount: number;
  readonly firstMessage: string;
  readonly shape: SessionShape;
}

/** A stored answer's fields as plain values (`null`: the file is no session). */
export function summarizeListingAnswer(text: string): ListingSummary | null {
  const stored = JSON.parse(text) as Stored;
  if (stored === null) return null;
  const [id, cwd, name, parentSessionPath, created, modified, messageCount, firstMessage] =
    stored.i;
  return {
    id,
    cwd,
    name,
    parentSessionPath,
    created,
    modified,
    messageCount,
    firstMessage,
    shape: stored.s,
  };
}
