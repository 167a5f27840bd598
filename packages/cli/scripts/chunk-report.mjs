// What a command of the bundled CLI loads before it runs: the chunks `dist/bin/main.js` and the
// command's chunk import statically, their bytes, the packages in them (largest first) and the
// Node built-ins they import. Reads the metafile `scripts/bundle.mjs --metafile FILE` wrote:
//   node scripts/bundle.mjs --metafile /tmp/meta.json && node scripts/chunk-report.mjs /tmp/meta.json ls
import { readFileSync } from "node:fs";

const [metafile, command] = process.argv.slice(2);
if (metafile === undefined || command === undefined) {
  throw new Error("usage: chunk-report.mjs METAFILE COMMAND");
}
const { outputs } = JSON.parse(readFileSync(metafile, "utf8"));
const names = Object.keys(outputs);
const main = names.find((name) => name.endsWith("/main.js"));
const entry = names.find((name) => new RegExp(`/${command}-[A-Z0-9]+\\.js$`).test(name));
if (main === undefined || entry === undefined) throw new Error(`no chunk for ${command}`);

const seen = new Set();
const builtins = new Set();
const todo = [main, entry];
while (todo.length > 0) {
  const name = todo.pop();
  if (seen.has(name)) continue;
  seen.add(name);
  for (const imported of outputs[name].imports) {
    if (imported.external) builtins.add(imported.path);
    else if (imported.kind !== "dynamic-import") todo.push(imported.path);
  }
}

/** A module's package (or our package and its module), from its path. */
function owner(path) {
  const dependency = path.match(
    /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/,
  );
  if (dependency !== null) return dependency[1];
  const own = path.match(/packages\/([^/]+)\/dist\/(.+)$/);
  return own === null ? path : `${own[1]}/${own[2]}`;
}

const bytes = new Map();
let total = 0;
for (const name of seen) {
  total += outputs[name].bytes;
  for (const [path, input] of Object.entries(outputs[name].inputs)) {
    bytes.set(owner(path), (bytes.get(owner(path)) ?? 0) + input.bytesInOutput);
  }
}
console.log(`${command}: ${seen.size} chunks, ${total} bytes before it runs`);
for (const [name, n] of [...bytes].sort((a, b) => b[1] - a[1]))
  console.log(`${String(n).padStart(8)}  ${name}`);
console.log(`built-ins: ${[...builtins].sort().join(" ")}`);
