/**
 * `sync <dir> --to <postgres://…>`: a sessions root and a PostgreSQL store (package
 * `@pi-sessions/store-postgres`, through its public API) end up holding every entry of both.
 * The server's log is append-only and shared by live writers, so it is never rewritten: what
 * the server lacks is appended, in the merged file's order (every parent first), through the
 * store's own sink under its writer lease; a colliding id keeps the server's entry, and the
 * folder's gets the fresh id. The folder file gets the merged session (as `sync` between two
 * folders writes it). A session on one side only is copied: imported byte for byte, or
 * exported into `--<cwd>--/<timestamp>_<id>.jsonl`.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type MergeResult,
  mergeSessions,
  parseSessionEntries,
  type SessionEntry,
  type SessionHeader,
  SessionLockedError,
} from "@pi-sessions/core";
import {
  encodeResolvedCwd,
  type PathProblem,
  readRegularFile,
  sessionFileName,
} from "@pi-sessions/core/internal";
import { PostgresSessionStore, SessionLeasedError } from "@pi-sessions/store-postgres";
import { oneLine, usageError } from "../io/errors.js";
import type { Progress } from "../io/progress.js";
import {
  type OldFile,
  OldFileFolders,
  oldFilesOf,
  settleOldFiles,
  sleep,
  withOldFiles,
} from "./old-files.js";
import {
  changeFor,
  closeSnapshot,
  commitFile,
  type FileChange,
  FileMovedError,
  oldFileName,
  readSnapshot,
} from "./session-file.js";
import { sessionsUnder } from "./sync-folders.js";
import { lockWithin, type PairOptions, type PairResult } from "./sync-pair.js";
import { withoutPassword } from "./url-password.js";

/** The header of session bytes, or undefined when they hold none. */
function headerOf(bytes: Buffer): SessionHeader | undefined {
  const first = parseSessionEntries(bytes.toString("utf8"))[0] as SessionHeader | undefined;
  return first?.type === "session" && typeof first.id === "string" ? first : undefined;
}

/** What the folder's file needs from a merge with the server copy first (`keep-a`). */
function folderNeeds(merged: MergeResult): boolean {
  const { entries, renamed, migrated } = merged.report;
  return entries.a > 0 || renamed.length > 0 || migrated.b !== undefined;
}

/** Syncs every session of `root` with the store at `url`. */
export async function syncWithPostgres(
  root: string,
  url: string,
  schema: string,
  options: PairOptions,
  progress: Progress,
): Promise<PairResult[]> {
  let store: PostgresSessionStore;
  try {
    store = await PostgresSessionStore.connect({
      connectionString: url,
      schema,
      applicationName: "pi-sessions sync",
    });
  } catch (error) {
    // The driver's reason ("connect ECONNREFUSED 127.0.0.1:5432") names no target of ours.
    throw usageError(
      `cannot reach the PostgreSQL server of --to ${withoutPassword(url)}: ${oneLine(error)}`,
    );
  }
  try {
    const onServer = new Set((await store.listAll()).map((info) => info.id));
    const local = new Map<string, string>();
    const results: PairResult[] = [];
    const problems: PathProblem[] = [];
    const files = sessionsUnder(root, problems);
    for (const p of problems) {
      const what = p.what === "folder" ? "folder " : "";
      results.push({
        session: p.path,
        status: "failed",
        message: `cannot read ${what}${p.reason}`,
      });
    }
    for (const rel of files) {
      let bytes: Buffer;
      try {
        bytes = readRegularFile(join(root, rel)); // never a FIFO's endless wait
      } catch (error) {
        results.push({ session: rel, status: "failed", message: oneLine(error) });
        continue;
      }
      const header = headerOf(bytes);
      if (!header) results.push({ session: rel, status: "failed", message: "not a pi session" });
      else if (local.has(header.id)) {
        const message = `same session id as ${local.get(header.id)}; synced that file only`;
        results.push({ session: rel, status: "skipped", message });
      } else local.set(header.id, rel);
    }
    const ids = [...new Set([...local.keys(), ...onServer])].sort();
    const folders = new OldFileFolders();
    for (const [i, id] of ids.entries()) {
      const rel = local.get(id);
      const sync = new SessionSync(store, root, id, options, folders);
      results.push(rel === undefined ? await sync.pull() : await sync.both(rel, onServer.has(id)));
      progress.update(i + 1, ids.length);
    }
    progress.done();
    return results;
  } finally {
    await store.close();
  }
}

/** One session's sync between the folder and the store. */
class SessionSync {
  constructor(
    private readonly store: PostgresSessionStore,
    private readonly root: string,
    private readonly id: string,
    private readonly options: PairOptions,
    private readonly folders: OldFileFolders,
  ) {}

  /** A session only the server has: exported into the folder where pi would keep it. */
  async pull(): Promise<PairResult> {
    const bytes = await this.store.exportBytes(this.id);
    const header = headerOf(bytes) as SessionHeader;
    // The header's cwd is the resolved one pi wrote: encoded as it is, not resolved again here.
    const rel = `${encodeResolvedCwd(header.cwd ?? "")}/${sessionFileName(header.timestamp, header.id)}`;
    return this.writeFolder(rel, async () => ({ bytes, change: "unchanged" as const }));
  }

  /** A session the folder has (and the server too, when `onServer`). */
  async both(rel: string, onServer: boolean): Promise<PairResult> {
    if (!onServer) {
      return this.writeFolder(rel, async (snap) => {
        const bytes = snap as Buffer;
        if (!this.options.dryRun) await this.store.importBytes(bytes, rel);
        return { bytes, change: "created" as const };
      });
    }
    return this.writeFolder(rel, (snap) => this.merge(snap as Buffer));
  }

  /**
   * The server copy merged with the folder's `local` bytes; under the lease, the entries the
   * server lacks are appended to it. Returns the folder's new content and the server's change.
   */
  private async merge(local: Buffer) {
    if (this.options.dryRun) {
      const merged = mergeSessions(await this.store.exportBytes(this.id), local, {
        collisions: "keep-a",
      });
      const push = merged.lines.filter((l) => l.origin === "b" && l.kind === "entry").length;
      return {
        bytes: folderNeeds(merged) ? merged.bytes : local,
        change: push ? "appended" : "unchanged",
        merged,
      } as const;
    }
    const location = await this.leased();
    const opened = this.store.open(location);
    try {
      const server = await this.store.exportBytes(this.id);
      const merged = mergeSessions(server, local, { collisions: "keep-a" });
      const entries = [...opened.entries];
      const header = opened.header as SessionHeader;
      let pushed = 0;
      for (const line of merged.lines) {
        if (line.origin !== "b" || line.kind !== "entry") continue;
        const entry = line.record as unknown as SessionEntry;
        entries.push(entry);
        opened.sink.append(entry, () => ({ header, entries }));
        pushed++;
      }
      await opened.sink.flush();
      const change: FileChange = pushed > 0 ? "appended" : "unchanged";
      return { bytes: folderNeeds(merged) ? merged.bytes : local, change, merged };
    } finally {
      opened.sink.close();
    }
  }

  /** Loads the session under the writer lease, waiting for another holder up to the limit. */
  private async leased(): Promise<string> {
    const until = Date.now() + this.options.lockWaitMs;
    for (;;) {
      try {
        return await this.store.load(this.id);
      } catch (error) {
        if (!(error instanceof SessionLeasedError) || Date.now() >= until) throw error;
        await sleep(100);
      }
    }
  }

  /**
   * Under our lock on the folder file `rel`: reads it, lets `step` sync the server and give the
   * file's new content, and writes it; again when the file changed meanwhile.
   */
  private async writeFolder(
    rel: string,
    step: (
      local: Buffer | undefined,
    ) => Promise<{ bytes: Buffer; change: FileChange; merged?: MergeResult }>,
  ): Promise<PairResult> {
    const path = join(this.root, rel);
    const lock = this.options.dryRun ? undefined : await lockWithin(path, this.options.lockWaitMs);
    if (lock instanceof SessionLockedError)
      return { session: rel, status: "skipped", message: oneLine(lock) };
    try {
      for (let attempt = 0; attempt < 8; attempt++) {
        const snap = readSnapshot(path);
        // Old files an earlier replace left (a pi process still wrote them): part of the copy.
        const olds: OldFile[] = [];
        let settled = false;
        try {
          olds.push(...oldFilesOf(path, this.folders, !this.options.dryRun));
          const { bytes, change: server, merged } = await step(withOldFiles(snap.bytes, olds));
          const folder = this.options.dryRun ? changeFor(snap, bytes) : commitFile(snap, bytes);
          let message: string | undefined;
          if (!this.options.dryRun) {
            if (folder === "replaced") {
              const name = oldFileName(path, snap.ino);
              olds.push({ snapshot: snap, name: existsSync(name) ? name : undefined });
            }
            // What pi writes to a replaced file after the rename reaches the folder file here,
            // and the server at the next sync.
            settled = true;
            message = await settleOldFiles([path], olds, this.options.lockWaitMs);
          }
          const done = folder === "unchanged" && server === "unchanged";
          const status = done ? "up-to-date" : this.options.dryRun ? "would-sync" : "synced";
          const counts = merged
            ? {
                toA: merged.report.entries.a,
                toB: merged.report.entries.b,
                renamed: merged.report.renamed,
                leafId: merged.report.leafId,
              }
            : {};
          return {
            session: rel,
            status,
            a: folder,
            b: server,
            ...counts,
            ...(message && { message }),
          };
        } catch (error) {
          if (error instanceof FileMovedError) continue;
          // A lease held elsewhere past the wait, a refused import, a dropped connection: this
          // session is reported and the next one synced; a later sync completes it.
          const status = error instanceof SessionLeasedError ? "skipped" : "failed";
          return { session: rel, status, message: oneLine(error) };
        } finally {
          if (!settled)
            for (const side of [snap, ...olds.map((old) => old.snapshot)]) closeSnapshot(side);
          else if (!olds.some((old) => old.snapshot === snap)) closeSnapshot(snap);
        }
      }
      return {
        session: rel,
        status: "failed",
        message: "kept changing while it was synced; run sync again",
      };
    } finally {
      lock?.release();
    }
  }
}
