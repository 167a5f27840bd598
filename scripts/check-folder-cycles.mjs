// No import cycle inside a package, between files or between folders. madge gives the import
// graph of each workspace package's src/ (type-only imports count: a folder that needs
// another's types depends on it as much as one that calls it). A file cycle is any cycle madge
// finds; a folder cycle is one in the graph where each file is replaced by its folder under
// src/ (`manager/` imports `store/` and `store/` imports `manager/`), so layering stays one-way.
// Cycles named in scripts/folder-cycles-allowed.json are printed as allowed and do not fail;
// any other cycle fails the run with the files that make it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import madge from "madge";

const root = fileURLToPath(new URL("..", import.meta.url));
const allowedPath = join(root, "scripts/folder-cycles-allowed.json");
const allowed = JSON.parse(readFileSync(allowedPath, "utf8"));

/** Workspace packages that have a src/ folder, with their package names. */
function workspacePackages() {
  const found = [];
  for (const group of ["packages", "examples"]) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const dir = join(root, group, name);
      if (!existsSync(join(dir, "src")) || !existsSync(join(dir, "package.json"))) continue;
      found.push({ dir, name: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name });
    }
  }
  return found;
}

/** The file graph of `dir/src`, keys and values relative to src/; other packages are left out. */
async function fileGraph(dir) {
  const src = join(dir, "src");
  const result = await madge(src, {
    baseDir: src,
    fileExtensions: ["ts"],
    tsConfig: join(dir, "tsconfig.json"),
    // Only this package's own sources: an import of another workspace package is a package
    // edge (pnpm's graph keeps those acyclic), not a folder edge of this one.
    dependencyFilter: (path) => path.startsWith(src + sep),
  });
  return { graph: result.obj(), fileCycles: result.circular() };
}

const folderOf = (file) => (dirname(file) === "." ? "(src root)" : dirname(file).split("/")[0]);

/**
 * Folder graph: for each folder pair, one file edge that makes it (printed as evidence). The
 * entry src/index.ts is left out: it re-exports every folder by design, so counting it would
 * make any folder that uses a root file look cyclic; the file-level check still covers it.
 */
function folderGraph(graph) {
  const edges = new Map();
  for (const [from, tos] of Object.entries(graph)) {
    if (from === "index.ts") continue;
    for (const to of tos) {
      const a = folderOf(from);
      const b = folderOf(to);
      if (a === b) continue;
      if (!edges.has(a)) edges.set(a, new Map());
      if (!edges.get(a).has(b)) edges.get(a).set(b, `${from} -> ${to}`);
    }
  }
  return edges;
}

/** Strongly connected components with more than one folder (Tarjan's algorithm). */
function cyclicComponents(edges) {
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) components.push(component.sort());
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return components;
}

/** One shortest cycle through the component's first folder, each hop with a file edge. */
function witness(component, edges) {
  const inside = new Set(component);
  const start = component[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of edges.get(v)?.keys() ?? []) {
      if (w === start) {
        const path = [v];
        while (previous.get(path[0]) !== null) path.unshift(previous.get(path[0]));
        return [...path, start];
      }
      if (inside.has(w) && !previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** The lines that explain a folder cycle: one cycle, then every folder edge inside it. */
function explain(component, edges) {
  const cycle = witness(component, edges);
  const lines = [`    cycle: ${cycle.map((f) => `${f}/`).join(" -> ")}`];
  for (const from of component) {
    for (const [to, evidence] of edges.get(from) ?? []) {
      if (component.includes(to)) lines.push(`    ${from}/ -> ${to}/  (${evidence})`);
    }
  }
  return lines;
}

const sameSet = (a, b) =>
  a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");
const isAllowed = (list, pkg, key, members) =>
  (list ?? []).some((entry) => entry.package === pkg && sameSet(entry[key], members));

let failures = 0;
const seenAllowed = { folderCycles: [], fileCycles: [] };
for (const { dir, name } of workspacePackages()) {
  const { graph, fileCycles } = await fileGraph(dir);
  const where = relative(root, join(dir, "src"));
  const edges = folderGraph(graph);
  for (const component of cyclicComponents(edges)) {
    const ok = isAllowed(allowed.folderCycles, name, "folders", component);
    if (ok) seenAllowed.folderCycles.push({ package: name, folders: component });
    else failures += 1;
    console[ok ? "log" : "error"](
      `${ok ? "allowed (scripts/folder-cycles-allowed.json)" : "FAIL"}: folder cycle in ${where}: ${component.join(", ")}`,
    );
    for (const line of explain(component, edges)) console[ok ? "log" : "error"](line);
  }
  for (const cycle of fileCycles) {
    const ok = isAllowed(allowed.fileCycles, name, "files", cycle);
    if (ok) seenAllowed.fileCycles.push({ package: name, files: cycle });
    else failures += 1;
    console[ok ? "log" : "error"](
      `${ok ? "allowed (scripts/folder-cycles-allowed.json)" : "FAIL"}: file cycle in ${where}: ${[...cycle, cycle[0]].join(" -> ")}`,
    );
  }
  console.log(`check-folder-cycles: ${name}: ${Object.keys(graph).length} files`);
}

// An allowed cycle that no longer exists should leave the list, so the list only shrinks.
for (const key of ["folderCycles", "fileCycles"]) {
  const members = key === "folderCycles" ? "folders" : "files";
  for (const entry of allowed[key] ?? []) {
    if (!isAllowed(seenAllowed[key], entry.package, members, entry[members])) {
      console.log(
        `note: allowed ${key === "folderCycles" ? "folder" : "file"} cycle ${entry.package}: ${entry[members].join(", ")} is gone; remove it from scripts/folder-cycles-allowed.json`,
      );
    }
  }
}
if (failures > 0) {
  console.error(`check-folder-cycles: ${failures} import cycle(s) not allowed (see above)`);
  process.exit(1);
}
console.log("check-folder-cycles: no import cycle beyond the allowed list");
