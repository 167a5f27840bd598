/**
 * The statements of group commit: the claim of every group's session row and the insert of
 * the claimed groups' lines, in one statement (one commit), and why a group was not claimed.
 * Each group keeps its own checks: the session's next seq is the group's first, the lease
 * token is the writer's; a group whose check fails changes nothing.
 *
 * A lone writer's lone line that needs nothing of the session row (`AppendGroup.renew`
 * false: the lease renewed lately, no listing state due, no newline owed) skips the claim's
 * UPDATE: its line is inserted under a share lock of the session row whose lease token is
 * the writer's, at the next seq (`session-head.ts`). The share lock, not a key-share one: a
 * take of the lease (an UPDATE of the row) waits for the insert and the insert for the take,
 * so a fenced writer's line never lands after the lease passed.
 */
import { SessionConflictError } from "@pi-sessions/core";
import type pg from "pg";
import { insertLeased, lineValues } from "./leased-append.js";
import { KEY_COLUMNS, keyArrays, type LineRow } from "./lines.js";
import { perSchema, sendNamed } from "./named-statement.js";
import { NEXT_SEQ_FLOOR, nextSeqSql } from "./session-head.js";
import type { Lease } from "./writes.js";

/** One session's lines to append, in order, at consecutive seqs from the first row's. */
export interface AppendGroup {
  readonly id: string;
  readonly location: string;
  readonly rows: readonly LineRow[];
  /** The texts the listing fold collected from each row (see `LineFold.line`). */
  readonly texts: readonly (string | null)[];
  readonly lease: Lease | undefined;
  /** The listing fold's state after the rows, when it is saved with them (else kept as is). */
  readonly state: Buffer | null;
  /**
   * Whether the session row must be updated with the rows (the lease renewed, the state
   * saved, a newline owed); false lets a lone one-line group skip the UPDATE (the fast path).
   * A leased writer only: without a lease the row's seq check is the only fence.
   */
  readonly renew: boolean;
}

/** A group as a round sends it: whether an earlier try may have committed it. */
export interface RoundGroup {
  readonly group: AppendGroup;
  readonly retrying: boolean;
}

/**
 * Claims every group's session row and inserts the rows of the claimed ones, in one statement
 * (one commit) on `client`, a connection outside any transaction; returns each group's
 * verdict: undefined when its rows are stored (now, or by an earlier try), else the conflict
 * that refused it. Groups must name distinct sessions.
 */
export async function commitGroups(
  client: pg.ClientBase,
  s: string,
  round: readonly RoundGroup[],
): Promise<(SessionConflictError | undefined)[]> {
  const groups = round.map((r) => r.group);
  const only = groups.length === 1 ? groups[0] : undefined;
  let won: Set<string>;
  try {
    won = new Set(
      only?.rows.length === 1
        ? await (only.renew || !only.lease ? claimOne : insertLeased)(client, s, only)
        : await claimAll(client, s, groups),
    );
  } catch (error) {
    // A line of a group at a seq taken meanwhile (a leased writer's line inserted without
    // updating the session row, beside a writer without the lease; or a fast append's seq
    // taken, our own earlier try's included): the statement fails whole. A round is split by
    // the committer (this is no transient fault), and a group alone gets its verdict as any
    // refused group does. Only the entries' key says a seq is taken: a unique index of the
    // operator's own refuses the line for another reason, which reaches the caller as it is.
    if (!only || !isSeqTaken(error)) throw error;
    won = new Set();
  }
  const lost = round.filter((r) => !won.has(r.group.id));
  const verdicts = lost.length === 0 ? new Map() : await whyNot(client, s, lost);
  return groups.map((g) => (won.has(g.id) ? undefined : verdicts.get(g.id)));
}

/** The claim and insert of a round of groups, as one statement; the ids of the claimed. */
async function claimAll(
  client: pg.ClientBase,
  s: string,
  groups: readonly AppendGroup[],
): Promise<string[]> {
  const claimed = await sendNamed<{ id: string }>(client, roundStatement(s, groups));
  return claimed.rows.map((r) => r.id);
}

/**
 * The statement of a round of groups (exported for the bench's profile, which explains it):
 * it returns the ids of the sessions it claimed.
 */
export function roundStatement(
  s: string,
  groups: readonly AppendGroup[],
): { readonly name: string; readonly text: string; readonly values: unknown[] } {
  const rows = groups.flatMap((g) =>
    g.rows.map((row, i) => ({ id: g.id, row, texts: g.texts[i] })),
  );
  // A named statement: each connection parses and plans it once. The session rows are taken in
  // the order of `unnest` (sorted by id by the caller), so two rounds never wait on each other
  // in a cycle. No foreign key: the claim proves the session exists and holds its row.
  const statement = roundText(s);
  return {
    name: statement.name,
    text: statement.text,
    values: [
      groups.map((g) => g.id),
      groups.map((g) => g.rows[0]?.seq),
      groups.map((g) => (g.rows.at(-1)?.seq ?? 0) + 1),
      groups.map((g) => g.lease?.token ?? null),
      groups.map((g) => g.lease?.ttlMs ?? 0),
      groups.map((g) => g.state),
      rows.map((r) => r.id),
      rows.map((r) => r.row.seq),
      // Lines and texts are JSON, which never holds a raw newline: joined by one, they go as
      // one value each, split by the server, instead of array literals escaped quote by quote.
      rows.map((r) => r.row.line).join("\n"),
      ...keyArrays(rows.map((r) => r.row)),
      rows.map((r) => r.texts ?? "").join("\n"),
    ],
  };
}

/** The round statement (see `roundStatement`). */
const roundText = perSchema((s) => ({
  name: `pi-sessions-append-groups:${s}`,
  text: `WITH g AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::float8[],
                            $6::bytea[]) AS g(id, first_seq, next_seq, token, ttl, state)),
     claimed AS (
       UPDATE ${s}.sessions s
          SET ${NEXT_SEQ_FLOOR} = g.next_seq, needs_newline = false, updated_at = now(),
              lease_until = CASE WHEN g.token IS NULL THEN s.lease_until
                                 ELSE now() + g.ttl * interval '1 millisecond' END,
              info_state = CASE WHEN g.state IS NULL THEN s.info_state ELSE g.state END,
              info_seq = CASE WHEN g.state IS NULL THEN s.info_seq ELSE g.next_seq END
         FROM g
        WHERE s.id = g.id AND ${nextSeqSql(s, "s")} = g.first_seq
          AND (g.token IS NULL OR s.lease_token = g.token)
        RETURNING s.id),
     inserted AS (
       INSERT INTO ${s}.entries (session_id, seq, line, ${KEY_COLUMNS}, info_texts)
       SELECT r.* FROM unnest($7::text[], $8::bigint[], string_to_array($9, E'\n'),
                              $10::text[], $11::text[], $12::text[], $13::text[], $14::text[],
                              string_to_array($15, E'\n', ''))
                AS r(id, seq, line, ${KEY_COLUMNS}, texts)
        WHERE r.id IN (SELECT id FROM claimed))
     SELECT id FROM claimed`,
}));

/**
 * The same for one group of one line (a writer alone, waiting for each append): scalar
 * parameters and no `unnest`, which is half the server's work for a single row.
 */
async function claimOne(client: pg.ClientBase, s: string, group: AppendGroup): Promise<string[]> {
  const statement = oneStatement(s);
  const inserted = await sendNamed(client, {
    name: statement.name,
    text: statement.text,
    values: [
      ...lineValues(group),
      group.lease?.token ?? null,
      group.lease?.ttlMs ?? 0,
      group.state,
      group.texts[0] ?? null,
    ],
  });
  // No RETURNING: the count says whether the line went in, without a row to describe and parse.
  return inserted.rowCount === 1 ? [group.id] : [];
}

/** The one-line statement (see `claimOne`). */
const oneStatement = perSchema((s) => ({
  name: `pi-sessions-append-one:${s}`,
  text: `WITH claimed AS (
       UPDATE ${s}.sessions s
          SET ${NEXT_SEQ_FLOOR} = $2 + 1, needs_newline = false, updated_at = now(),
              lease_until = CASE WHEN $9::bigint IS NULL THEN lease_until
                                 ELSE now() + $10 * interval '1 millisecond' END,
              info_state = CASE WHEN $11::bytea IS NULL THEN info_state ELSE $11 END,
              info_seq = CASE WHEN $11::bytea IS NULL THEN info_seq ELSE $2 + 1 END
        WHERE id = $1 AND ${nextSeqSql(s, "s")} = $2::bigint
          AND ($9::bigint IS NULL OR lease_token = $9)
        RETURNING id)
     INSERT INTO ${s}.entries (session_id, seq, line, ${KEY_COLUMNS}, info_texts)
     SELECT id, $2, $3, $4, $5, $6, $7, $8, $12 FROM claimed`,
}));

/** PostgreSQL's code for a unique violation. */
const UNIQUE_VIOLATION = "23505";

/** The entries' primary key (session, seq), as migration 1 named it by default. */
const ENTRIES_KEY = "entries_pkey";

/** Whether `error` is a line at a seq another statement took (the entries' key, no other). */
function isSeqTaken(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return e?.code === UNIQUE_VIOLATION && e.constraint === ENTRIES_KEY;
}

/** Why each group was not claimed: none of ours when its own first line is there already. */
async function whyNot(
  client: pg.ClientBase,
  s: string,
  lost: readonly RoundGroup[],
): Promise<Map<string, SessionConflictError | undefined>> {
  const found = await client.query<{
    id: string;
    exists: boolean;
    line: string | null;
    raw: Buffer | null;
    lease_owner: string | null;
    lease_token: string | null;
  }>(
    `SELECT g.id, s.id IS NOT NULL AS exists, e.line, e.raw, s.lease_owner, s.lease_token
       FROM unnest($1::text[], $2::bigint[]) AS g(id, seq)
       LEFT JOIN ${s}.sessions s ON s.id = g.id
       LEFT JOIN ${s}.entries e ON e.session_id = g.id AND e.seq = g.seq`,
    [lost.map((l) => l.group.id), lost.map((l) => l.group.rows[0]?.seq)],
  );
  const byId = new Map(found.rows.map((r) => [r.id, r]));
  const out = new Map<string, SessionConflictError | undefined>();
  for (const { group, retrying } of lost) {
    const current = byId.get(group.id);
    const first = group.rows[0] as LineRow;
    let verdict: SessionConflictError | undefined;
    if (!current?.exists) {
      verdict = new SessionConflictError(
        group.location,
        "the session was deleted from the database",
      );
    } else if (retrying && current.line === first.line) {
      // Our own line at our seq: an earlier try committed the group, only its answer was lost.
      verdict = undefined;
    } else if (group.lease && Number(current.lease_token) !== group.lease.token) {
      const holder = current.lease_owner ?? "another writer";
      verdict = new SessionConflictError(group.location, `the writer lease passed to ${holder}`);
    } else if (current.line === null && current.raw === null) {
      // No line at its seq: the session has fewer lines than the writer knows of.
      const why = `the session has no line ${first.seq - 1} any more (rewritten or shortened)`;
      verdict = new SessionConflictError(group.location, why);
    } else {
      const why = `another writer appended line ${first.seq} first`;
      verdict = new SessionConflictError(group.location, why);
    }
    out.set(group.id, verdict);
  }
  return out;
}
