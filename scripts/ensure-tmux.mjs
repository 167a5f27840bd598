// The launcher's TUI tests drive the real `pi` command's interactive mode inside tmux. This
// step makes `pnpm test` self-sufficient on a fresh Debian machine: it installs Debian's tmux
// when it is missing and we may (root + apt-get), and otherwise fails with one clear line.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const path = process.env.TMUX_PATH ?? "/usr/bin/tmux";
if (existsSync(path)) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = existsSync("/usr/bin/apt-get");
if (!isRoot || !hasApt) {
  console.error(
    `ensure-tmux: ${path} not found; install Debian's tmux (apt-get install tmux) or set TMUX_PATH to a tmux binary`,
  );
  process.exit(1);
}
const apt = (args) =>
  execFileSync("apt-get", args, {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
console.error("ensure-tmux: installing Debian's tmux for the launcher's TUI tests…");
try {
  apt(["install", "-y", "tmux"]);
} catch {
  // A fresh image may have no package lists yet.
  apt(["update"]);
  apt(["install", "-y", "tmux"]);
}
if (!existsSync(path)) {
  console.error(`ensure-tmux: apt-get finished but ${path} is still missing`);
  process.exit(1);
}
