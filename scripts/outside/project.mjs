// The outside project: a fresh folder where plain npm installs only the packed tarballs (and
// what they depend on from the registry), then compiles and runs every code snippet of the
// repository's Markdown against them, and runs the examples' tests as a copied project would.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ROOT } from "../pack-all.mjs";
import { USER_COMPILER_OPTIONS } from "../user-compiler-options.mjs";
import { snippetsOfFile } from "./snippets.mjs";

const manifest = (path) => JSON.parse(readFileSync(join(ROOT, path, "package.json"), "utf8"));

/**
 * What the project installs besides the tarballs, pinned to the versions the workspace uses
 * (read from its manifests, so there is one definition of each): the peers and tools a user
 * of the packages brings, and TypeScript to compile the snippets.
 */
export function externalDependencies() {
  const root = manifest(".");
  const plugins = manifest("packages/plugins");
  const testkit = manifest("packages/testkit");
  const pick = (from, names) => Object.fromEntries(names.map((n) => [n, from[n]]));
  return {
    ...pick(root.devDependencies, ["typescript", "vitest", "vite", "@types/node"]),
    ...pick(plugins.devDependencies, [
      "@earendil-works/pi-ai",
      "@earendil-works/pi-coding-agent",
      "@earendil-works/pi-tui",
    ]),
    ...pick(plugins.dependencies, ["io-ts", "fp-ts"]),
    ...pick(testkit.devDependencies, ["fast-check", "typebox"]),
  };
}

/** Runs a command, output shown; throws with `what` when it fails. */
export function run(cmd, args, cwd, what, env = {}) {
  const r = spawnSync(cmd, args, { cwd, stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0)
    throw new Error(`${what} failed (${cmd} ${args.join(" ")}: exit ${r.status})`);
}

/** Makes the project in `dir` and installs the tarballs and the externals with one npm install. */
export function installProject(dir, tarballs) {
  mkdirSync(dir, { recursive: true });
  const dependencies = {
    ...Object.fromEntries(tarballs.map((t) => [t.name, `file:${t.tarball}`])),
    ...externalDependencies(),
  };
  const pkg = { name: "pi-sessions-outside-project", private: true, type: "module", dependencies };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  const install = ["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefer-offline"];
  try {
    execFileSync("npm", install, { cwd: dir, stdio: "inherit" });
  } catch {
    // npm can fail to read a package's metadata while another npm writes the same cache:
    // one more try, then it is real.
    rmSync(join(dir, "node_modules"), { recursive: true, force: true });
    run("npm", install, dir, "npm install");
  }
}

/** The repository's Markdown with snippets: every tracked `.md` but API reports and fixtures. */
export function markdownFiles() {
  return execFileSync("git", ["ls-files", "*.md"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((f) => f !== "" && !/(^|\/)api\//.test(f) && !f.startsWith("fixtures/"));
}

/** `packages/plugins/docs/pi-extensions.md` → `packages-plugins-docs-pi-extensions`. */
const slug = (path) => path.replace(/\.md$/, "").replace(/[^A-Za-z0-9]+/g, "-");

/**
 * Writes every snippet under `<dir>/snippets/<markdown>/`: `N.ts` / `N.mjs` (a partial one
 * with its declarations first), named files as named, vitest ones as `N.test.ts`. Returns
 * what to run: `[{ source, file, output? }]` (paths relative to the snippets folder).
 */
export function writeSnippets(dir) {
  const runs = [];
  let count = 0;
  for (const md of markdownFiles()) {
    const snippets = snippetsOfFile(join(ROOT, md), md);
    if (snippets.length === 0) continue;
    const folder = join(dir, "snippets", slug(md));
    mkdirSync(folder, { recursive: true });
    snippets.forEach((s, i) => {
      const name =
        s.kind === "file" ? s.name : s.kind === "vitest" ? `${i + 1}.test.ts` : `${i + 1}.${s.ext}`;
      const prelude = s.kind === "partial" ? `// partial: ${s.reason}\n${s.prelude}\n` : "";
      writeFileSync(join(folder, name), `${prelude}${s.code}\n`);
      for (const used of s.uses ?? []) cpSync(join(ROOT, used), join(folder, basename(used)));
      count++;
      if (s.kind === "run") {
        runs.push({ source: `${md}:${s.line}`, file: `${slug(md)}/${name}`, output: s.output });
      }
    });
  }
  return { runs, count };
}

/** Copies the examples whose tests an outside author would copy: their sources and tests. */
export function copyExamples(dir) {
  for (const name of ["pi-todo", "testkit-exporter"]) {
    for (const part of ["src", "test"]) {
      cpSync(join(ROOT, "examples", name, part), join(dir, "examples", name, part), {
        recursive: true,
      });
    }
  }
}

/** The project's compiler settings: strict, Node's ES modules, JavaScript snippets checked too. */
export function writeTsconfig(dir) {
  const tsconfig = {
    compilerOptions: {
      ...USER_COMPILER_OPTIONS,
      allowJs: true,
      checkJs: true,
      outDir: "out",
      rootDir: ".",
    },
    include: ["snippets", "examples"],
  };
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
}

/** The vitest settings of the README's recipe: the testkit's pi hook loaded first. */
export function writeVitestConfig(dir) {
  writeFileSync(join(dir, "vitest.setup.mjs"), 'import "@pi-sessions/testkit/pi-hook";\n');
  writeFileSync(
    join(dir, "vitest.config.mjs"),
    `export default {
  test: {
    include: ["snippets/**/*.test.ts", "examples/*/test/**/*.test.ts"],
    setupFiles: ["./vitest.setup.mjs"],
    testTimeout: 0,
    hookTimeout: 0,
  },
};
`,
  );
}

const trimLines = (text) =>
  text
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .trim();

/**
 * Runs one compiled snippet with Node in a folder and a home of its own (nothing it writes
 * lands in the user's `~/.pi`); returns a problem, or undefined.
 */
export function runSnippet(dir, snippet) {
  const cwd = join(dir, "runs", snippet.file.replace(/[^A-Za-z0-9]+/g, "-"));
  mkdirSync(cwd, { recursive: true });
  const file = join(
    dir,
    "out",
    "snippets",
    snippet.file.replace(/\.(ts|mjs)$/, (_m, e) => (e === "ts" ? ".js" : ".mjs")),
  );
  const r = spawnSync(process.execPath, [file], {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      HOME: cwd,
      PI_CODING_AGENT_DIR: join(cwd, ".pi", "agent"),
      FC_RUNS: "20",
    },
  });
  if (r.status !== 0) return `${snippet.source}: exited ${r.status}\n${r.stdout}${r.stderr}`;
  if (snippet.output !== undefined && trimLines(r.stdout) !== trimLines(snippet.output)) {
    return `${snippet.source}: printed\n${r.stdout}\ninstead of\n${snippet.output}`;
  }
  return undefined;
}
