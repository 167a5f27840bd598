/**
 * The read paths never open what is not a regular file, and a scan says what it could not
 * read. A FIFO, a listening socket, a character device (a real `mknod` node as root, else a
 * symlink to /dev/zero), a directory, a dangling symlink and a symlink loop, each named
 * `*.jsonl` beside a real session: every reader gives the session and refuses or skips the
 * rest without hanging. Hangs are caught by a watcher that unblocks any reader of the FIFO and
 * records that it was opened (see `watchFifos`), so a regression fails instead of never ending.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import type { Server } from "node:net";
import { join } from "node:path";
import { makeDevice, makeFifo, makeSocket, watchFifos } from "@pi-sessions/test-utils/messy-files";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionManager } from "../../src/session-manager.js";
import { findMostRecentSession, readHeader } from "../../src/store/discovery.js";
import { jsonlPaths } from "../../src/store/jsonl-paths.js";
import { listAllSessions, listSessions } from "../../src/store/listing.js";
import { readSession, readSessionFile } from "../../src/store/read-session.js";
import { NotRegularFileError, readRegularFile } from "../../src/store/regular-file.js";
import { buildSessionInfo, readSessionInfoSync } from "../../src/store/session-info.js";
import { type PathProblem, scanSessionFiles } from "../../src/store/session-scan.js";
import { tempDir } from "./helpers.js";

const HEADER =
  '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}';
const USER =
  '{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hi","timestamp":1}}';

let root: string;
let project: string;
let session: string;
let server: Server;
/** Every path that is not a regular file, by what it is. */
const odd: Record<string, string> = {};

beforeAll(async () => {
  root = tempDir();
  project = join(root, "--w--");
  mkdirSync(project);
  session = join(project, "good.jsonl");
  writeFileSync(session, `${HEADER}\n${USER}\n`);
  odd.fifo = makeFifo(join(project, "fifo.jsonl"));
  server = await makeSocket(join(project, "socket.jsonl"));
  odd.socket = join(project, "socket.jsonl");
  odd.device = join(project, "device.jsonl");
  makeDevice(odd.device);
  odd.directory = join(project, "dir.jsonl");
  mkdirSync(odd.directory);
  odd.dangling = join(project, "dangling.jsonl");
  symlinkSync(join(project, "nowhere"), odd.dangling);
  odd.loop = join(project, "loop.jsonl");
  symlinkSync(odd.loop, odd.loop);
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** Runs `read` with the FIFO watched; fails if anything opened it. */
async function neverOpensFifo<T>(read: () => T | Promise<T>): Promise<T> {
  const watch = await watchFifos([odd.fifo as string]);
  try {
    return await read();
  } finally {
    expect(await watch.stop(), "a reader opened the FIFO").toEqual([]);
  }
}

describe("read paths refuse what is not a regular file, without opening it", () => {
  it("readSession and readSessionFile throw NotRegularFileError for a FIFO, socket, device and directory", async () => {
    await neverOpensFifo(() => {
      for (const kind of ["fifo", "socket", "device", "directory"]) {
        const path = odd[kind] as string;
        expect(() => readSession(path), kind).toThrow(NotRegularFileError);
        expect(() => readSessionFile(path, undefined as never), kind).toThrow(NotRegularFileError);
        expect(() => readRegularFile(path), kind).toThrow(NotRegularFileError);
      }
    });
    // The writing open too: `SessionManager.open` of a FIFO is refused, never waited on.
    await neverOpensFifo(() => {
      expect(() => SessionManager.open(odd.fifo as string, project)).toThrow(NotRegularFileError);
    });
    expect(() => readSession(odd.fifo as string)).toThrow(
      /FIFO \(named pipe\), not a regular file/,
    );
    expect(() => readSession(odd.socket as string)).toThrow(/a socket, not a regular file/);
    expect(() => readSession(odd.device as string)).toThrow(
      /a character device, not a regular file/,
    );
    expect(() => readSession(odd.loop as string)).toThrow(
      expect.objectContaining({ code: "ELOOP" }),
    );
  });

  it("header and info readers and every listing skip them and still list the session", async () => {
    await neverOpensFifo(async () => {
      for (const path of Object.values(odd)) {
        expect(readHeader(path), path).toBeNull();
        expect(buildSessionInfo(path), path).toBeNull();
        expect(readSessionInfoSync(path, true), path).toBeNull();
      }
      expect(findMostRecentSession(project)).toBe(session);
      expect((await listSessions(project, { cache: null })).map((i) => i.path)).toEqual([session]);
      expect((await listAllSessions(root, { cache: null })).map((i) => i.path)).toEqual([session]);
    });
  });
});

describe("scanSessionFiles", () => {
  it("gives the session file and one problem for each odd entry, without opening any", async () => {
    const scan = await neverOpensFifo(() => scanSessionFiles(root));
    expect(scan.files).toEqual([session]);
    expect(scan.rootProblem).toBeUndefined();
    const byPath = new Map(scan.problems.map((p) => [p.path, p]));
    const reasons: Record<string, string> = {
      fifo: "a FIFO (named pipe), not a regular file",
      socket: "a socket, not a regular file",
      device: "a character device, not a regular file",
      directory: "a directory, not a regular file",
      dangling: "a dangling symbolic link",
      loop: "a symbolic link loop",
    };
    for (const [kind, reason] of Object.entries(reasons)) {
      expect(byPath.get(odd[kind] as string), kind).toMatchObject({ reason, what: "file" });
    }
    expect(scan.problems).toHaveLength(Object.keys(reasons).length);
  });

  it("reports a project folder it cannot list (a symlink loop) and a root it cannot list", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "--ok--"));
    writeFileSync(join(dir, "--ok--", "a.jsonl"), `${HEADER}\n`);
    symlinkSync(join(dir, "--loop--"), join(dir, "--loop--"));
    const scan = scanSessionFiles(dir);
    expect(scan.files).toEqual([join(dir, "--ok--", "a.jsonl")]);
    expect(scan.problems).toEqual<PathProblem[]>([
      {
        path: join(dir, "--loop--"),
        code: "ELOOP",
        reason: "a symbolic link loop",
        what: "folder",
      },
    ]);
    const problems: PathProblem[] = [];
    expect(jsonlPaths(join(dir, "--loop--"), problems)).toEqual([]);
    expect(problems).toHaveLength(1);
    // The root itself: a loop cannot be listed; a missing root is simply empty.
    const rootScan = scanSessionFiles(join(dir, "--loop--"));
    expect(rootScan.rootProblem).toMatchObject({ code: "ELOOP", what: "folder" });
    expect(scanSessionFiles(join(dir, "missing"))).toEqual({ files: [], problems: [] });
    expect(jsonlPaths(join(dir, "missing"), problems)).toEqual([]);
    expect(problems).toHaveLength(1);
  });
});
