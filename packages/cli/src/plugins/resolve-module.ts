/**
 * Where a `--plugin <module>` is: a path (`./x.mjs`, `../x.mjs`, `/abs/x.mjs`, `file:` URL)
 * resolved against the working directory, or a package name (`my-plugin`, `@me/plugin/sub`)
 * found from the working directory as Node's `import` would find it — not from where the CLI
 * is installed, which knows nothing of the user's project. Node resolves a bare name only from
 * a module's own location (`import.meta.resolve` takes no parent without a flag), so the
 * package is found by `findPackageJSON` and its `exports` (or `main`) read here, with the
 * conditions an `import` in Node uses.
 */

import { existsSync, readFileSync, statSync } from "node:fs";
import { findPackageJSON } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { usageError } from "../io/errors.js";

/** The conditions Node's `import` matches in a package's `exports`, in its order of keys. */
const IMPORT_CONDITIONS: ReadonlySet<string> = new Set([
  "node",
  "import",
  "module-sync",
  "default",
]);

/** Whether `spec` names a file (Node's rule: relative, absolute or a file URL), not a package. */
function isPathSpec(spec: string): boolean {
  return (
    spec.startsWith("./") ||
    spec.startsWith("../") ||
    spec === "." ||
    spec === ".." ||
    spec.startsWith("file:") ||
    isAbsolute(spec)
  );
}

/** The file a conditional `exports` target names for `import`, if any. */
function exportTarget(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = exportTarget(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, target] of Object.entries(value)) {
    if (!IMPORT_CONDITIONS.has(key)) continue;
    const found = exportTarget(target);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The entry of `subpath` (`.` or `./sub`) in a package's manifest; undefined when not exported. */
function packageEntry(manifest: Record<string, unknown>, subpath: string): string | undefined {
  const { exports } = manifest;
  if (exports === undefined || exports === null) {
    if (subpath !== ".") return subpath;
    return typeof manifest.main === "string" ? manifest.main : "./index.js";
  }
  const bySubpath =
    typeof exports === "object" &&
    !Array.isArray(exports) &&
    Object.keys(exports)[0]?.startsWith(".")
      ? (exports as Record<string, unknown>)
      : { ".": exports };
  return exportTarget(bySubpath[subpath]);
}

/** The package name and subpath of a bare specifier: `@a/b/c` → `@a/b`, `./c`. */
function splitSpecifier(spec: string): [string, string] {
  const parts = spec.split("/");
  const nameParts = spec.startsWith("@") ? 2 : 1;
  const rest = parts.slice(nameParts).join("/");
  return [parts.slice(0, nameParts).join("/"), rest === "" ? "." : `./${rest}`];
}

/** The package module `spec` names, found from `cwd`; a usage error when there is none. */
function packageModule(spec: string, cwd: string): string {
  const [name, subpath] = splitSpecifier(spec);
  let manifestPath: string | undefined;
  try {
    manifestPath = findPackageJSON(name, pathToFileURL(join(cwd, "noop.js")));
  } catch {
    manifestPath = undefined;
  }
  if (manifestPath === undefined) {
    const asFile = existsSync(resolve(cwd, spec)) ? ` (for the file, write ./${spec})` : "";
    throw usageError(
      `plugin module ${spec}: no package "${name}" is installed for ${cwd}${asFile}`,
    );
  }
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
  const entry = packageEntry(manifest, subpath);
  if (entry === undefined) {
    throw usageError(`plugin module ${spec}: package "${name}" exports no "${subpath}" for import`);
  }
  return join(dirname(manifestPath), entry);
}

/**
 * The URL `import()` takes for the plugin module `spec`, resolved from `cwd`. A usage error
 * (exit 2, one line) when no such file or package is there.
 */
export function pluginModuleUrl(spec: string, cwd: string): string {
  const path = isPathSpec(spec)
    ? spec.startsWith("file:")
      ? fileURLToPath(spec)
      : resolve(cwd, spec)
    : packageModule(spec, cwd);
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    throw usageError(`plugin module ${spec}: no such file: ${path}`);
  }
  if (!isFile) throw usageError(`plugin module ${spec}: not a file: ${path}`);
  return pathToFileURL(path).href;
}
