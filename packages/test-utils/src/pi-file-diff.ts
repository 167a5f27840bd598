/**
 * What comparisons with pi share once both sides' files are normalised (pi-normalise.ts): the
 * files and directories of a tree, their modes, and where two JSONL texts differ line by line.
 * Used by core's pi-runtime test and the CLI's launcher tests.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every file and directory below `dir`, depth first, sorted by name (`[]` when missing). */
export function walkTree(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [path, ...walkTree(path)] : [path];
  });
}

/** The permission bits of a path, in octal (`"600"`). */
export function fileModeOf(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

/** The JSON path of the first value that differs between two lines (`$` if not JSON). */
export function firstDifferingField(a: string, b: string): string {
  let x: unknown;
  let y: unknown;
  try {
    x = JSON.parse(a);
    y = JSON.parse(b);
  } catch {
    return "$";
  }
  const walkValues = (u: unknown, v: unknown, path: string): string | undefined => {
    if (JSON.stringify(u) === JSON.stringify(v)) return undefined;
    if (typeof u !== "object" || typeof v !== "object" || u === null || v === null) return path;
    const keys = [...new Set([...Object.keys(u), ...Object.keys(v)])];
    for (const k of keys) {
      const found = walkValues(
        (u as Record<string, unknown>)[k],
        (v as Record<string, unknown>)[k],
        `${path}.${k}`,
      );
      if (found) return found;
    }
    return `${path} (key order)`;
  };
  return walkValues(x, y, "$") ?? "$";
}

/** One line where two texts differ. */
export interface LineDifference {
  /** 1-based line number. */
  readonly line: number;
  /** JSON path of the first differing value (`$` when a side has no such line or no JSON). */
  readonly field: string;
  readonly pi?: string;
  readonly ours?: string;
}

/** The lines where `pi` and `ours` (normalised lines of one file) differ. */
export function diffLines(pi: readonly string[], ours: readonly string[]): LineDifference[] {
  const out: LineDifference[] = [];
  for (let i = 0; i < Math.max(pi.length, ours.length); i++) {
    const [x, y] = [pi[i], ours[i]];
    if (x === y) continue;
    const field = x === undefined || y === undefined ? "$" : firstDifferingField(x, y);
    out.push({ line: i + 1, field, pi: x, ours: y });
  }
  return out;
}
