/**
 * The index's commands on an untidy sessions folder (issue 32): a FIFO, a socket and (as root) a
 * device named `*.jsonl` hang none of `ls`, `search`, `index`, `index --verify` and
 * `usage --all` (each is killed after a bound and then fails here), and each answers as it does
 * without them — a command that walks the folder names each special file on stderr in one line
 * and exits 2 (unreadable input, the rest still read), as every command does since the CLI's
 * hardening.
 */

import { spawnSync } from "node:child_process";
import { chmodSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { copyCorpus } from "./helpers/fixtures.js";
import { binCommand, CLI_DIR } from "./helpers/run-bin.js";

/**
 * Runs the CLI, killed after 60 s: a hang fails the test instead of stalling it. `asUser`: as
 * a user folder modes apply to (root reads any folder: as root, the child runs as `nobody`).
 */
function run(args: readonly string[], env: NodeJS.ProcessEnv, asUser = false) {
  const nobody = asUser && process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const result = spawnSync(process.execPath, [...binCommand(), ...args], {
    cwd: CLI_DIR,
    env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...env },
    encoding: "utf8",
    timeout: 60_000,
    ...nobody,
  });
  expect(result.error, `pi-sessions ${args.join(" ")}`).toBeUndefined();
  return result;
}

/** The special files, each named `*.jsonl`, in `dir`; the socket's server is returned to close. */
function specials(dir: string): string[] {
  const fifo = join(dir, "fifo.jsonl");
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  // A socket file made by a short-lived process (it stays behind once that process is gone).
  const socket = join(dir, "socket.jsonl");
  const made = spawnSync(process.execPath, [
    "-e",
    `require("node:net").createServer().listen(${JSON.stringify(socket)}, () => process.exit(0))`,
  ]);
  expect(made.status).toBe(0);
  const out = [fifo, socket];
  if (process.getuid?.() === 0) {
    const device = join(dir, "device.jsonl");
    expect(spawnSync("mknod", [device, "c", "1", "3"]).status).toBe(0);
    out.push(device);
  }
  return out;
}

describe("a FIFO, a socket and a device named *.jsonl in the sessions folder", () => {
  it("hang none of ls, search, index, index --verify and usage --all through the index", () => {
    const plain = tempDir();
    copyCorpus(plain);
    const messy = tempDir();
    const copied = copyCorpus(messy);
    const project = join(Object.values(copied)[0] as string, "..");
    const odd = [...specials(project), ...specials(messy)];
    /** Whether `stderr` names every special file in one line of its own. */
    const namesEach = (stderr: string) => {
      for (const path of odd) {
        expect(stderr.split("\n").filter((l) => l.includes(path))).toHaveLength(1);
      }
    };
    const index = (dir: string) => ({ PI_SESSIONS_INDEX: join(dir, "..", `${Date.now()}.sqlite`) });
    const same = (args: string[]) => {
      const a = run([...args, "--dir", plain], index(tempDir()));
      const b = run([...args, "--dir", messy], index(tempDir()));
      return { a, b };
    };
    const ls = same(["ls", "--all", "--json"]);
    expect(ls.a.status).toBe(0);
    expect(ls.b.status, ls.b.stderr).toBe(2);
    namesEach(ls.b.stderr);
    const paths = (out: string) =>
      (JSON.parse(out) as { path: string }[]).map((r) => r.path.slice(r.path.lastIndexOf("/")));
    expect(paths(ls.b.stdout)).toEqual(paths(ls.a.stdout));
    const search = same(["search", "test", "--json"]);
    expect(search.b.status).toBe(search.a.status);
    expect((JSON.parse(search.b.stdout) as unknown[]).length).toBe(
      (JSON.parse(search.a.stdout) as unknown[]).length,
    );
    const file = join(tempDir(), "index.sqlite");
    const synced = run(["index", "--dir", messy, "--json"], { PI_SESSIONS_INDEX: file });
    expect(synced.status, synced.stderr).toBe(2);
    namesEach(synced.stderr);
    const verified = run(["index", "--verify", "--dir", messy], { PI_SESSIONS_INDEX: file });
    expect(verified.status, verified.stderr).toBe(2);
    namesEach(verified.stderr);
    expect(verified.stdout).toContain(
      `no problems in what could be read, ${odd.length} could not be read`,
    );
    const usage = same(["usage", "--all", "--json"]);
    expect(usage.a.status).toBe(0);
    expect(usage.b.status, usage.b.stderr).toBe(2);
    namesEach(usage.b.stderr);
    expect(usage.b.stdout.length).toBeGreaterThan(0);
  });
});

describe("a sessions folder that cannot be read", () => {
  it("index keeps what it holds of it, names it on stderr and exits 2", () => {
    const parent = tempDir();
    chmodSync(parent, 0o755);
    const root = join(parent, "sessions");
    const copied = copyCorpus(root);
    spawnSync("chmod", ["-R", "a+rwX", root]);
    const dir = tempDir();
    chmodSync(dir, 0o777);
    const env = { PI_SESSIONS_INDEX: join(dir, "index.sqlite") };
    const first = run(["index", "--dir", root, "--json"], env, true);
    expect(first.status, first.stderr).toBe(0);
    const sessions = (JSON.parse(first.stdout) as { sessions: number }).sessions;
    const project = join(Object.values(copied)[0] as string, "..");
    chmodSync(project, 0o000);
    try {
      const blocked = run(["index", "--dir", root, "--json"], env, true);
      expect(blocked.status).toBe(2);
      expect(blocked.stderr.trim()).toBe(
        `pi-sessions: cannot read ${project}; what the index holds of it is kept as it was`,
      );
      expect(JSON.parse(blocked.stdout)).toMatchObject({ counts: { gone: 0 } });
      chmodSync(root, 0o000);
      const rootBlocked = run(["index", "--dir", root], env, true);
      expect(rootBlocked.status).toBe(2);
      expect(rootBlocked.stderr.trim()).toBe(
        `pi-sessions: cannot read --dir ${root}: permission denied`,
      );
    } finally {
      chmodSync(root, 0o755);
      chmodSync(project, 0o755);
    }
    // Readable again: nothing was lost meanwhile.
    const again = run(["index", "--dir", root, "--json"], env, true);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ sessions, counts: { gone: 0, indexed: 0 } });
  });
});
