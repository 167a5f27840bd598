/**
 * The two facts of a session that its row no longer holds exactly, each as one SQL expression
 * that every statement reading it uses (one definition of each rule).
 *
 * A lone writer's append (`append-groups.ts`, the fast path) inserts its line under a share
 * lock of the session row without updating that row, so the row's next seq is a lower bound
 * (`next_seq_floor`: the next seq as of the last statement that updated the row) and its `updated_at` is
 * the time of that statement. The lines say the rest: the session's next seq is one past its
 * last line (the primary key's backward scan, one index probe), and its last write is the
 * later of the row's update and its last line's `written_at`. Lines are contiguous from seq 0,
 * so the last line by seq is the last one written.
 */

/**
 * The column of the session row that holds its next seq's lower bound. Migration 4 renamed it
 * from `next_seq`, which code before it read as exact: every statement of that code now fails
 * (the column does not exist) instead of claiming a taken seq or saving a listing state over
 * lines it never saw. Every statement of ours names it through this constant.
 */
export const NEXT_SEQ_FLOOR = "next_seq_floor";

/**
 * The session's next seq: `next_seq_floor` of the row aliased `alias`, or one past its last line
 * when lines were appended after the row's last update. `s` is the quoted schema.
 */
export function nextSeqSql(s: string, alias: string): string {
  return `GREATEST(${alias}.${NEXT_SEQ_FLOOR},
    (SELECT max(e_n.seq) + 1 FROM ${s}.entries e_n WHERE e_n.session_id = ${alias}.id))`;
}

/**
 * The session's last write (what a listing shows where a file's mtime would stand): the later
 * of the row's `updated_at` and its last line's `written_at` (NULL for lines written before
 * migration 4, whose writers updated the row with every line; GREATEST ignores a NULL).
 */
export function lastWriteSql(s: string, alias: string): string {
  return `GREATEST(${alias}.updated_at,
    (SELECT e_w.written_at FROM ${s}.entries e_w WHERE e_w.session_id = ${alias}.id
      ORDER BY e_w.seq DESC LIMIT 1))`;
}
