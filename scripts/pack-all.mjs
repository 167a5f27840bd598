// Packs every public package of the workspace into installable tarballs in one folder:
//
//   pnpm pack:all                       # builds, then packs into ./tarballs
//   node scripts/pack-all.mjs --out DIR # packs what is built into DIR
//
// `pnpm pack` writes what publishing would: `workspace:*` ranges become the versions of the
// packed siblings, and `publishConfig.exports` replaces `exports`, so the packed manifests
// carry no `@pi-sessions/source` condition (it points at TypeScript sources and only serves
// this repository's own tests). An outside project installs the folder's tarballs together:
// `npm install ./tarballs/*.tgz` (see the root README).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * The public packages: every `packages/*` whose package.json is not private, with its folder
 * and manifest, in name order.
 */
export function publicPackages() {
  const dir = join(ROOT, "packages");
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((path) => existsSync(join(path, "package.json")))
    .map((path) => ({
      dir: path,
      manifest: JSON.parse(readFileSync(join(path, "package.json"), "utf8")),
    }))
    .filter((p) => p.manifest.private !== true)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/** The file a package's `pnpm pack` writes: `@scope/name@1.0.0` → `scope-name-1.0.0.tgz`. */
export function tarballName(manifest) {
  return `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`;
}

/**
 * Packs every public package into `out` (made if missing) and returns
 * `[{ name, dir, manifest, tarball }]`. Throws when a package has not been built.
 */
export function packAll(out) {
  mkdirSync(out, { recursive: true });
  return publicPackages().map(({ dir, manifest }) => {
    const built = manifest.exports?.["."]?.import ?? manifest.main;
    if (!built || !existsSync(join(dir, built))) {
      throw new Error(
        `${manifest.name} is not built (${built} missing): run pnpm build, or pnpm pack:all`,
      );
    }
    execFileSync("pnpm", ["pack", "--pack-destination", out], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const tarball = join(out, tarballName(manifest));
    if (!existsSync(tarball)) throw new Error(`pnpm pack did not write ${tarball}`);
    return { name: manifest.name, dir, manifest, tarball };
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: "string", default: "tarballs" } } });
  const out = resolve(values.out);
  try {
    const packed = packAll(out);
    for (const p of packed) console.log(`${p.name.padEnd(28)} ${p.tarball}`);
    console.log(`\nInstall them together in any project: npm install ${out}/*.tgz`);
  } catch (error) {
    console.error(`pack-all: ${error.message}`);
    process.exit(1);
  }
}
