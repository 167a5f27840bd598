/**
 * I1 (a written file starts with exactly one valid header) and I2 (ids unique, parents exist,
 * no cycles). Both read plain data, so they also serve files and logs that no manager wrote.
 */
import { isJsonRecord } from "@pi-sessions/core/internal";
import {
  type EntryView,
  guard,
  type SessionData,
  type SessionView,
  type Violation,
  violation,
} from "./types.js";

function parseLine(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * I1: the text of a file an implementation *wrote* starts, on line 1, with a valid header
 * (`type: "session"`, string `id`, numeric `version`, string `timestamp` and `cwd`, SPEC §2.2),
 * and no other line is a `session` record.
 */
export function checkI1Header(text: string): Violation[] {
  return guard("I1", (out) => {
    const lines = text.split("\n");
    const first = parseLine(lines[0] ?? "");
    if (!isJsonRecord(first) || first.type !== "session") {
      out.push(violation("I1", "line 1 is not a session header", { line: 1 }));
    } else {
      if (typeof first.id !== "string") {
        out.push(violation("I1", "the header has no string id", { line: 1 }));
      }
      if (typeof first.version !== "number") {
        out.push(violation("I1", "a written header must carry a numeric version", { line: 1 }));
      }
      for (const key of ["timestamp", "cwd"]) {
        if (typeof first[key] !== "string") {
          out.push(violation("I1", `a written header must carry a string ${key}`, { line: 1 }));
        }
      }
    }
    for (let i = 1; i < lines.length; i++) {
      const raw = lines[i] as string;
      // Cheap pre-test: only lines that mention "session" can be a second header.
      if (!raw.includes('"session"')) continue;
      const record = parseLine(raw);
      if (isJsonRecord(record) && record.type === "session") {
        out.push(violation("I1", "a second session header", { line: i + 1 }));
      }
    }
  });
}

/** The entries of any input the data checkers accept. */
function entriesOfInput(
  input: SessionView | SessionData | readonly EntryView[],
): readonly EntryView[] {
  if (Array.isArray(input)) return input as readonly EntryView[];
  if ("getEntries" in input) return input.getEntries();
  return (input as SessionData).entries;
}

/**
 * I2: every entry has a string id, ids are unique, every `parentId` is `null` or the id of an
 * existing entry (never its own), and following parents never loops. Accepts an entry array,
 * `{ entries }`, or a session (its `getEntries()`).
 */
export function checkI2UniqueIdsAndParents(
  input: SessionView | SessionData | readonly EntryView[],
): Violation[] {
  return guard("I2", (out) => {
    const entries = entriesOfInput(input);
    const parentOf = new Map<string, string | null>();
    entries.forEach((e, i) => {
      if (typeof e?.id !== "string") {
        out.push(violation("I2", `entry ${i + 1} has no string id`));
        return;
      }
      if (parentOf.has(e.id))
        out.push(violation("I2", `id ${e.id} is used twice`, { entryId: e.id }));
      parentOf.set(e.id, e.parentId);
    });
    for (const e of entries) {
      if (typeof e?.id !== "string") continue;
      const p = e.parentId as unknown;
      if (p === null) continue;
      if (typeof p !== "string") {
        out.push(
          violation("I2", `parentId is ${JSON.stringify(p)}, not null or a string`, {
            entryId: e.id,
          }),
        );
      } else if (p === e.id) {
        out.push(violation("I2", "the entry is its own parent", { entryId: e.id }));
      } else if (!parentOf.has(p)) {
        out.push(violation("I2", `parent ${p} does not exist`, { entryId: e.id }));
      }
    }
    for (const cycle of parentCycles(parentOf)) {
      out.push(violation("I2", `parent cycle ${cycle.join(" → ")}`, { entryId: cycle[0] }));
    }
  });
}

/** Cycles of length ≥ 2 in an id → parent map (self-parents are reported separately). */
function parentCycles(parentOf: ReadonlyMap<string, string | null>): string[][] {
  const state = new Map<string, 1 | 2>();
  const cycles: string[][] = [];
  for (const start of parentOf.keys()) {
    const walk: string[] = [];
    let id: string | undefined = start;
    while (id !== undefined && !state.has(id)) {
      state.set(id, 1);
      walk.push(id);
      const p: string | null | undefined = parentOf.get(id);
      id = typeof p === "string" && p !== id && parentOf.has(p) ? p : undefined;
    }
    if (id !== undefined && state.get(id) === 1) cycles.push(walk.slice(walk.indexOf(id)));
    for (const w of walk) state.set(w, 2);
  }
  return cycles;
}
