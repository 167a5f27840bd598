/**
 * `sessionFolderArb`: a sessions root as pi leaves it — cwd folders named as pi names them
 * (`--home-dev-app--`), files named `<timestamp>_<uuid>.jsonl` — with sessions, forks
 * (`forkFrom`), branched sessions (`createBranchedSession`, also of abandoned branches),
 * `parentSession` that resolves, names a moved root or a deleted parent, the same session
 * under two cwd folders, damaged and legacy files, and opt-in odd values. Every folder carries
 * the facts an oracle needs (see {@link SessionFolder}).
 */
import fc from "fast-check";
import type { DamageKind } from "../arbitraries/damage-types.js";
import { damagedSessionArb } from "../arbitraries/damaged.js";
import { cwdArb, sessionHeaderArb, sessionIdArb } from "../arbitraries/header.js";
import { legacySessionArb } from "../arbitraries/legacy.js";
import { logStepArb, type SessionLogOptions } from "../arbitraries/session-log.js";
import { assembleFolder, type DerivedPart, type SessionPart } from "./folder-assemble.js";
import type { DerivedKind, ParentLink, SessionFolder } from "./folder-types.js";
import { type HostileValueName, hostileValueSpecArb } from "./hostile-values.js";

/** Options of {@link sessionFolderArb}. */
export interface SessionFolderOptions {
  /** Fewest sessions with records of their own (default 1). */
  minSessions?: number;
  /** Most sessions with records of their own (default 3). */
  maxSessions?: number;
  /** Most entries per session (default 10). */
  maxEntries?: number;
  /** Most forks, branched sessions and copies (default 3). */
  maxDerived?: number;
  /** Which derived files to make (default all: `fork`, `branched`, `copy`). */
  derived?: readonly DerivedKind[];
  /** Where `parentSession` of a fork or branched session leads (default all three). */
  links?: readonly ParentLink[];
  /** Sometimes add a damaged file (garbage, non-object, blank, torn lines; default true). */
  damaged?: boolean;
  /** Sometimes add a legacy (v1 or v2) file (default true). */
  legacy?: boolean;
  /** Odd values to plant, by name (default none; see `HOSTILE_VALUES`). */
  values?: readonly HostileValueName[];
  /** Most odd values planted per folder (default 4). */
  maxValues?: number;
  /** Length of a `long-lines` text (default 100,000). */
  longLineLength?: number;
  /** Most cwd folders (default 3). */
  maxCwds?: number;
  /** Options of each session's log (entry kinds, shape; default: every kind, mostly linear). */
  log?: SessionLogOptions;
}

/** Line damage that adds no record: what a reader must still see is the intact records. */
const LINE_DAMAGE: readonly DamageKind[] = [
  "garbage-line",
  "non-object-line",
  "blank-line",
  "torn-tail",
  "missing-final-newline",
];

const DAY_MS = 86_400_000;

/** A sessions root with the facts an oracle needs; shrinks toward fewer, smaller files. */
export function sessionFolderArb(options: SessionFolderOptions = {}): fc.Arbitrary<SessionFolder> {
  const maxEntries = options.maxEntries ?? 10;
  const session: fc.Arbitrary<SessionPart> = fc.record(
    {
      header: sessionHeaderArb({ parentSession: false }),
      cwd: fc.nat(),
      steps: fc.array(logStepArb(options.log), { maxLength: maxEntries }),
    },
    { noNullPrototype: true },
  );
  const kinds = options.derived ?? (["fork", "branched", "copy"] as const);
  const links = options.links ?? (["resolvable", "moved", "deleted"] as const);
  const derived: fc.Arbitrary<DerivedPart[]> =
    kinds.length === 0 || links.length === 0
      ? fc.constant([])
      : fc.array(
          fc.record(
            {
              kind: fc.constantFrom(...kinds),
              source: fc.nat(),
              cwd: fc.nat(),
              // At least 1 ms: a file made from another is strictly younger (the oldest-first rule).
              delay: fc.integer({ min: 1, max: 3 * DAY_MS }),
              leaf: fc.nat(),
              link: fc.constantFrom(...links),
              id: sessionIdArb,
            },
            { noNullPrototype: true },
          ),
          { maxLength: options.maxDerived ?? 3 },
        );
  const small = Math.max(1, Math.min(6, maxEntries));
  const damaged =
    options.damaged === false
      ? fc.constant(null)
      : fc.option(damagedSessionArb({ damage: LINE_DAMAGE, maxEntries: small, maxDamage: 2 }), {
          freq: 4,
        });
  const legacy =
    options.legacy === false
      ? fc.constant(null)
      : fc.option(legacySessionArb({ maxEntries: small }), { freq: 4 });
  return fc
    .record(
      {
        cwds: fc.array(cwdArb, { minLength: 1, maxLength: options.maxCwds ?? 3 }),
        salt: fc.nat(),
        sessions: fc.array(session, {
          minLength: options.minSessions ?? 1,
          maxLength: options.maxSessions ?? 3,
        }),
        derived,
        damaged,
        legacy,
        values: hostileValueSpecArb(options.values ?? [], options.maxValues ?? 4),
      },
      { noNullPrototype: true },
    )
    .map((parts) =>
      assembleFolder({ ...parts, longLineLength: options.longLineLength ?? 100_000 }),
    );
}
