// The CLI's HTML export test opens the page in headless Chromium. Test tools cannot download
// their own browser on these machines, so the test uses Debian's chromium package. This
// step makes `pnpm test` self-sufficient on a fresh Debian machine: it installs the package
// when it is missing and we may (root + apt-get), and otherwise fails with one clear line.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (existsSync(path)) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = existsSync("/usr/bin/apt-get");
if (!isRoot || !hasApt) {
  console.error(
    `ensure-chromium: ${path} not found; install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary`,
  );
  process.exit(1);
}
const apt = (args) =>
  execFileSync("apt-get", args, {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
console.error("ensure-chromium: installing Debian's chromium for the HTML export test…");
try {
  apt(["install", "-y", "chromium"]);
} catch {
  // A fresh image may have no package lists yet.
  apt(["update"]);
  apt(["install", "-y", "chromium"]);
}
if (!existsSync(path)) {
  console.error(`ensure-chromium: apt-get finished but ${path} is still missing`);
  process.exit(1);
}
