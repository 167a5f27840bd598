/**
 * The stages of one persisted `appendMessage`, each as a function the harness can time on its
 * own (see `append-breakdown.ts`): building the entry base (id and timestamp), the stored
 * clone, the line, the fold of every projection, the bus, the tail check's `fstat`, the
 * `write`, the writer's whole `appendRecord`, and the reference's `appendFileSync`.
 */

import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import { join } from "node:path";
import type { AgentMessage, SessionEntry, SessionManager, SessionState } from "@pi-sessions/core";
import { systemEnv } from "../src/env/env.js";
import { generateEntryId } from "../src/env/ids.js";
import { jsonClone } from "../src/format/json-clone.js";
import { messageEntry } from "../src/manager/entry-builders.js";
import { leafSummary, replayState } from "../src/projections/builtins.js";
import { hasSeenId, logEntries } from "../src/state/entry-log.js";
import { foldEntry } from "../src/state/session-state.js";
import { SessionFileWriter } from "../src/store/session-writer.js";
import type { MessagePool } from "./generate.js";
import type { RefManager } from "./reference.js";

/** A timed function: `i` is its running call index. */
export type Stage = (_: undefined, i: number) => unknown;

/** The user and assistant messages of the pool in turn, as appends use them. */
export function messageAt(pool: MessagePool, i: number): AgentMessage {
  const list = (i & 1 ? pool.assistants : pool.users) as unknown as AgentMessage[];
  return list[(i >> 1) % list.length] as AgentMessage;
}

/** The parts of a manager the stages reach (protected members, read for measuring only). */
interface ManagerInternals {
  state: SessionState;
  bus: { emit(type: string, make: () => unknown): void };
  validators: readonly ((entry: SessionEntry) => unknown)[];
}

/** Options of {@link appendStages}. */
export interface StageSetup {
  /** The manager whose state ids are drawn against (ours, opened on the session file). */
  readonly ours: SessionManager;
  /** The reference's manager of the same session, for its id check. */
  readonly reference: RefManager;
  readonly pool: MessagePool;
  /** Scratch directory for the write stages' files. */
  readonly dir: string;
  /** Calls each stage may get in all (the fold needs a fresh chained entry per call). */
  readonly calls: number;
}

/** The stage functions, by name, plus a `close` that releases their files. */
export interface Stages {
  readonly stages: readonly (readonly [string, Stage])[];
  /** Mean UTF-8 bytes of the lines the stages write. */
  readonly lineBytes: number;
  close(): void;
}

/** Builds the stage functions for one session size. */
export function appendStages(setup: StageSetup): Stages {
  const { ours, pool, dir, calls } = setup;
  // The reference's id map (a public field of its manager), for its generateId's check.
  const refIds = (setup.reference as unknown as { byId: Map<string, unknown> }).byId;
  const internals = ours as unknown as ManagerInternals;
  const base = { id: "0badc0de", parentId: "feedf00d", timestamp: new Date().toISOString() };
  const entries = Array.from({ length: 128 }, (_, i) => messageEntry(base, messageAt(pool, i)));
  const stored = entries.map((e) => jsonClone(e));
  const lines = stored.map((e) => `${JSON.stringify(e)}\n`);
  const lineBytes = lines.reduce((sum, l) => sum + Buffer.byteLength(l), 0) / lines.length;

  // A private fold chain over a copy of the session's state (its entries shared): folding onto
  // the manager's own newest state would append to its log store and make it fork-copy.
  const live = internals.state;
  let foldState = replayState(live.header, logEntries(live.log));
  leafSummary(foldState); // warm: the context summary is extended on every fold, as in pi
  const chain: SessionEntry[] = [];
  let parent = foldState.leafId;
  for (let i = 0; i < calls; i++) {
    const id = `f${i.toString(16).padStart(7, "0")}`;
    chain.push(
      jsonClone(
        messageEntry({ id, parentId: parent, timestamp: base.timestamp }, messageAt(pool, i)),
      ),
    );
    parent = id;
  }

  const open = (name: string): number =>
    fs.openSync(
      join(dir, name),
      fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT,
      0o600,
    );
  const writeFd = open("write.jsonl");
  const statFd = open("fstat.jsonl");
  const bothFd = open("fstat-write.jsonl");
  const appendPath = join(dir, "append-file-sync.jsonl");
  const writerPath = join(dir, "writer.jsonl");
  fs.writeFileSync(writerPath, "", { mode: 0o600 });
  const writer = SessionFileWriter.attach(writerPath, { size: 0, endsWithNewline: true });
  const records = lines.map((line) => line.slice(0, -1)); // what the manager hands the writer
  writer.appendRecord(records[0] as string); // lock and fd outside the timed loop

  const stages: [string, Stage][] = [
    [
      "id + timestamp",
      () => {
        const log = internals.state.log;
        return generateEntryId(systemEnv, (id) => hasSeenId(log, id)) + new Date().toISOString();
      },
    ],
    [
      "ref id + timestamp",
      () => {
        // The reference's generateId (collision-checked against its id map) and timestamp.
        let id = randomUUID().slice(0, 8);
        for (let n = 1; refIds.has(id) && n < 100; n++) id = randomUUID().slice(0, 8);
        return id + new Date().toISOString();
      },
    ],
    ["entry + jsonClone", (_, i) => jsonClone(messageEntry(base, messageAt(pool, i)))],
    ["JSON.stringify", (_, i) => `${JSON.stringify(stored[i & 127])}\n`],
    [
      "validate (none)",
      (_, i) => {
        for (const v of internals.validators) v(stored[i & 127] as SessionEntry);
      },
    ],
    [
      "fold (all projections)",
      (_, i) => {
        foldState = foldEntry(foldState, chain[i] as SessionEntry);
        return foldState;
      },
    ],
    ["bus emit (no listener)", () => internals.bus.emit("entryAppended", () => base)],
    ["fstat", () => fs.fstatSync(statFd)],
    ["write (kept fd)", (_, i) => fs.writeSync(writeFd, lines[i & 127] as string)],
    [
      "fstat + write (same fd)",
      (_, i) => {
        fs.fstatSync(bothFd);
        return fs.writeSync(bothFd, lines[i & 127] as string);
      },
    ],
    ["writer.appendRecord", (_, i) => writer.appendRecord(records[i & 127] as string)],
    ["appendFileSync (ref IO)", (_, i) => fs.appendFileSync(appendPath, lines[i & 127] as string)],
  ];
  return {
    stages,
    lineBytes,
    close: () => {
      writer.close();
      fs.closeSync(writeFd);
      fs.closeSync(statFd);
      fs.closeSync(bothFd);
    },
  };
}
