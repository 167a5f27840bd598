// What each packed tarball must hold, and must not: the checks an outside user relies on
// before installing anything. Each returns a list of problems (empty when the tarball is fine).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { ROOT } from "../pack-all.mjs";

/** Paths inside a tarball, without the leading `package/`. */
export function tarballFiles(tarball) {
  return execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.startsWith("package/") && !line.endsWith("/"))
    .map((line) => line.slice("package/".length));
}

const fromTarball = (tarball, path) =>
  execFileSync("tar", ["-xzOf", tarball, `package/${path}`], { encoding: "utf8" });

/** Never in a tarball: tests, benchmarks, build and test configuration, build caches. */
const NEVER = [
  /^test\//,
  /^bench\//,
  /^api\//,
  /(^|\/)node_modules\//,
  /^tsconfig[^/]*\.json$/,
  /^vitest\.config\./,
  /\.tsbuildinfo$/,
  /^\.turbo\//,
  /\.test\.[cm]?[jt]s$/,
];

/** The Node floor the root README states ("Our packages need Node ≥ 22.19"). */
export function readmeNodeFloor() {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const m = /packages need Node ≥ (\d+)\.(\d+)/.exec(readme);
  if (!m) throw new Error('the root README no longer says "packages need Node ≥ X.Y"');
  return `>=${m[1]}.${m[2]}.0`;
}

/** Every export target of a manifest's `exports` (strings at any depth). */
function targets(exportsField) {
  if (typeof exportsField === "string") return [exportsField];
  if (!exportsField || typeof exportsField !== "object") return [];
  return Object.values(exportsField).flatMap(targets);
}

/** The manifest as packed: publish fields present, no workspace ranges, no source condition. */
function manifestProblems(p, packed, files, floor) {
  const out = [];
  const text = JSON.stringify(packed);
  if (text.includes("workspace:")) out.push("package.json keeps a workspace: range");
  if (JSON.stringify(packed.exports ?? {}).includes("@pi-sessions/source")) {
    out.push("exports keep the @pi-sessions/source condition");
  }
  for (const field of [
    "exports",
    "types",
    "engines",
    "license",
    "repository",
    "sideEffects",
    "files",
  ]) {
    if (packed[field] === undefined) out.push(`package.json has no "${field}"`);
  }
  if (packed.engines?.node !== floor)
    out.push(`engines.node is ${packed.engines?.node}, the README says ${floor}`);
  const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const dir = posix.relative(ROOT.replaceAll("\\", "/"), p.dir.replaceAll("\\", "/"));
  if (packed.repository?.url !== root.repository?.url || packed.repository?.directory !== dir) {
    out.push(`repository is not the root's url with directory "${dir}"`);
  }
  for (const target of [
    ...targets(packed.exports),
    packed.main,
    packed.types,
    ...Object.values(packed.bin ?? {}),
  ]) {
    if (typeof target !== "string") continue;
    if (!files.includes(posix.normalize(target)))
      out.push(`${target} (named in package.json) is not in the tarball`);
  }
  // The workspace manifest says the same as the packed one, minus the source condition.
  const strip = (e) =>
    typeof e === "object" && e !== null
      ? Object.fromEntries(
          Object.entries(e)
            .filter(([k]) => k !== "@pi-sessions/source")
            .map(([k, v]) => [k, strip(v)]),
        )
      : e;
  if (JSON.stringify(strip(p.manifest.exports)) !== JSON.stringify(packed.exports)) {
    out.push("publishConfig.exports is not exports without the @pi-sessions/source condition");
  }
  return out;
}

/** Links in shipped Markdown: relative ones inside the tarball, repository ones to real files. */
function linkProblems(tarball, files, repoUrl) {
  const out = [];
  const web = repoUrl.replace(/^git\+/, "").replace(/\.git$/, "");
  for (const md of files.filter((f) => f.endsWith(".md"))) {
    const text = fromTarball(tarball, md);
    for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = link.split("#")[0];
      if (target === "" || /^mailto:/.test(target)) continue;
      if (target.startsWith(`${web}/`)) {
        const path = target.slice(web.length).replace(/^\/(tree|blob)\/main\//, "");
        if (!existsSync(join(ROOT, path)))
          out.push(`${md} links to ${link}, which the repository lacks`);
      } else if (!/^[a-z]+:/.test(target)) {
        const resolved = posix.normalize(posix.join(posix.dirname(md), target));
        const inside = files.includes(resolved) || files.some((f) => f.startsWith(`${resolved}/`));
        if (!inside) out.push(`${md} links to ${link}, which is not in the tarball`);
      }
    }
  }
  return out;
}

/**
 * The problems of one packed package: its file list (README, LICENSE, every target; nothing
 * of the workspace's own), the same list as `npm pack --dry-run`, its manifest, its links.
 */
export function tarballProblems(p, floor) {
  const files = tarballFiles(p.tarball);
  const packed = JSON.parse(fromTarball(p.tarball, "package.json"));
  const out = [];
  for (const needed of ["package.json", "README.md", "LICENSE"]) {
    if (!files.includes(needed)) out.push(`${needed} is not in the tarball`);
  }
  if (
    readFileSync(join(p.dir, "LICENSE"), "utf8") !== readFileSync(join(ROOT, "LICENSE"), "utf8")
  ) {
    out.push("LICENSE differs from the repository's");
  }
  for (const f of files) if (NEVER.some((re) => re.test(f))) out.push(`${f} should not be packed`);
  const npm = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: p.dir,
      encoding: "utf8",
    }),
  );
  const npmFiles = npm[0].files.map((f) => f.path).sort();
  const ours = [...files].sort();
  if (JSON.stringify(npmFiles) !== JSON.stringify(ours)) {
    const only = (a, b) =>
      a
        .filter((x) => !b.includes(x))
        .slice(0, 5)
        .join(", ");
    out.push(
      `npm pack --dry-run lists other files: only npm ${only(npmFiles, ours)}; only pnpm ${only(ours, npmFiles)}`,
    );
  }
  out.push(...manifestProblems(p, packed, files, floor));
  out.push(...linkProblems(p.tarball, files, packed.repository?.url ?? ""));
  return out.map((problem) => `${p.name}: ${problem}`);
}
