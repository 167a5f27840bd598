/**
 * The measured scenarios: ours, the reference and (for opening) the raw-parse baseline on
 * the same generated session, in the same process, one row per implementation.
 *
 * Whole-file operations (opening) are measured in interleaved rounds, so load bursts on this
 * shared machine and the GC debt one contender leaves to the next fall on all alike. Context,
 * agent step and children run on one freshly opened manager per implementation. Appends are
 * measured on managers of every size of a shape in the same rounds (`appendScenarios`).
 */

import { type AgentMessage, parseSessionEntries, SessionManager } from "@pi-sessions/core";
import type { GeneratedSession, MessagePool } from "./generate.js";
import { createRng } from "./generate.js";
import { type Measurement, measure, measureRounds, type SampleBudget } from "./harness.js";
import type { RefManager, RefModule } from "./reference.js";

/** Who a row measures. */
export type Impl = "ours" | "ref" | "base";

/** One measured figure. */
export interface Row {
  readonly metric: Metric;
  readonly impl: Impl;
  readonly shape: string;
  readonly size: number;
  readonly result: Measurement;
}

/** The metrics, in table order. */
export const METRICS = [
  "parse",
  "open",
  "open.inMemory",
  "open.records",
  "open.adopt",
  "context.first",
  "context",
  "step",
  "children",
  "append",
  "append.warm",
  "append.heard",
] as const;
export type Metric = (typeof METRICS)[number];

const CWD = "/work/project";

/**
 * Ours, opened from records it may keep: the protected `adoptRecords` (migrate, split,
 * replay) that `inMemory` runs after its defensive copy. Not public API; shown to separate
 * the fold from the parse and from the copy.
 */
class AdoptingManager extends SessionManager {
  static adopt(records: Record<string, unknown>[]): SessionManager {
    const sm = new AdoptingManager(CWD, {});
    sm.adoptRecords(records);
    return sm;
  }
}

/** Ours through the cheapest public path from text: `fromJsonl` (parses, owns, replays). */
function openOurs(text: string): SessionManager {
  return SessionManager.fromJsonl(text, CWD);
}

/** Ours through the reference's path: parse, then `inMemory` (which copies the entries). */
function openOursInMemory(text: string): SessionManager {
  return SessionManager.inMemory(CWD, undefined, parseSessionEntries(text));
}

/** The reference the same way (it takes ownership of the parsed entries). */
function openRef(ref: RefModule, text: string): RefManager {
  return ref.SessionManager.inMemory(CWD, undefined, ref.parseSessionEntries(text));
}

/** Sampling budget of the slow (whole-file) operations: few samples for big sessions. */
function slowBudget(size: number): SampleBudget {
  // No warm-up at 100k: the smaller sizes, run first in the same process, warmed the code.
  if (size >= 100_000) return { warmupSamples: 0, minSamples: 3, maxSamples: 3, minMs: 0 };
  if (size >= 10_000) return { warmupMs: 300, minSamples: 10, maxSamples: 20, minMs: 800 };
  return { warmupMs: 300, minSamples: 30, maxSamples: 300, minMs: 400 };
}

/** What the manager scenarios call; ours and the reference both fit. */
interface Subject {
  appendMessage(message: AgentMessage): string;
  buildSessionContext(): unknown;
  getBranch(): unknown;
  getChildren(parentId: string): unknown;
}

/** Appends the pool's user and assistant messages in turn. */
function appender(sm: Subject, pool: MessagePool): (_: undefined, i: number) => string {
  const users = pool.users as unknown as AgentMessage[];
  const assistants = pool.assistants as unknown as AgentMessage[];
  return (_, i) =>
    sm.appendMessage((i & 1 ? assistants : users)[(i >> 1) % users.length] as AgentMessage);
}

/**
 * Context, agent step and children on a manager opened by `open`. One manager is
 * alive at a time (plus the text), so neither implementation pays for the other's heap.
 * `slow` caps the samples of the whole-session operations (the reference's O(n) ones).
 */
function managerScenarios(
  impl: Impl,
  open: () => Subject,
  session: GeneratedSession,
  pool: MessagePool,
  add: (metric: Metric, impl: Impl, result: Measurement) => void,
): void {
  const { size } = session;
  const big = size >= 100_000;
  const slow = impl === "ref";
  const sm = open();
  add(
    "context",
    impl,
    measure(
      () => sm.buildSessionContext(),
      slow
        ? { minSamples: big ? 8 : 10, maxSamples: big ? 8 : 50, minMs: 300 }
        : { batch: "auto", warmupMs: 100, minMs: 300 },
    ),
  );

  // Agent step: a user and an assistant message appended, then context and branch.
  const append = appender(sm, pool);
  const steps = Math.min(300, Math.max(30, size / 20));
  add(
    "step",
    impl,
    measure(
      (_: undefined, i) => {
        append(undefined, 2 * i);
        append(undefined, 2 * i + 1);
        sm.buildSessionContext();
        return sm.getBranch();
      },
      slow
        ? { warmupSamples: 2, minSamples: 5, maxSamples: big ? 8 : 60, minMs: big ? 0 : 300 }
        : { warmupSamples: 5, minSamples: steps, maxSamples: steps, minMs: 0 },
    ),
  );

  // getChildren for random ids of the session.
  const rng = createRng(size);
  const probe: string[] = [];
  for (let i = 0; i < 1024; i++)
    probe.push(session.ids[rng.int(0, session.ids.length - 1)] as string);
  add(
    "children",
    impl,
    measure(
      (_: undefined, i) => sm.getChildren(probe[i & 1023] as string),
      slow
        ? { batch: "auto", targetSampleMs: 2, minMs: 200, maxSamples: 50 }
        : { batch: "auto", warmupMs: 100, minMs: 300 },
    ),
  );
}

/** Bus dispatch on every append: one `entryAppended` and one wildcard handler, as plugins add. */
function heard(sm: SessionManager): SessionManager {
  const seen = { chars: 0 }; // the handlers' work: a little, so they cannot be optimised away
  sm.events.on("entryAppended", ({ entry }) => {
    seen.chars += entry.id.length;
  });
  sm.events.on("*", (type) => {
    seen.chars += type.length;
  });
  return sm;
}

/**
 * `appendMessage` on freshly opened managers of every size of one shape, all measured in the
 * same rounds (ours as opened, ours after one context build, the reference), so that a load
 * burst cannot pass for a size effect: the question is whether the cost is flat in the size.
 */
export function appendScenarios(
  sessions: readonly GeneratedSession[],
  ref: RefModule,
  pool: MessagePool,
): Row[] {
  const subjects: { impl: Impl; metric: Metric; session: GeneratedSession; sm: Subject }[] = [];
  for (const session of sessions) {
    const warm = openOurs(session.text);
    warm.buildSessionContext();
    subjects.push(
      { impl: "ours", metric: "append", session, sm: openOurs(session.text) },
      { impl: "ours", metric: "append.warm", session, sm: warm },
      { impl: "ours", metric: "append.heard", session, sm: heard(openOurs(session.text)) },
      {
        impl: "ref",
        metric: "append",
        session,
        sm: openRef(ref, session.text) as unknown as Subject,
      },
    );
  }
  const results = measureRounds(
    subjects.map((s) => appender(s.sm, pool)),
    { batch: 50, warmupSamples: 10, minSamples: 100, maxSamples: 100, minMs: 0 },
  );
  return subjects.map((s, k) => ({
    metric: s.metric,
    impl: s.impl,
    shape: s.session.shape,
    size: s.session.size,
    result: results[k] as Measurement,
  }));
}

/** Runs every scenario on one session. */
export function runScenarios(session: GeneratedSession, ref: RefModule, pool: MessagePool): Row[] {
  const rows: Row[] = [];
  const { shape, size, text } = session;
  const add = (metric: Metric, impl: Impl, result: Measurement): void => {
    rows.push({ metric, impl, shape, size, result });
  };
  const big = size >= 100_000;
  const slowOpts = slowBudget(size);

  // --- open: interleaved rounds, so load bursts and GC debt fall on every contender alike ---
  const [parse, open, openRef1, openInMemory] = measureRounds(
    [
      () => text.split("\n").map((l) => (l ? JSON.parse(l) : undefined)),
      () => openOurs(text),
      () => openRef(ref, text),
      () => openOursInMemory(text),
    ],
    slowOpts,
  ) as [Measurement, Measurement, Measurement, Measurement];
  add("parse", "base", parse);
  add("open", "ours", open);
  add("open", "ref", openRef1);
  add("open.inMemory", "ours", openInMemory);
  {
    const records = parseSessionEntries(text);
    const plain = records as unknown as Record<string, unknown>[];
    // The reference keeps the array it is given; opening never changes it, so one is reused.
    const refRecords = ref.parseSessionEntries(text);
    const [copied, adopted, refOpened] = measureRounds(
      [
        () => SessionManager.inMemory(CWD, undefined, records),
        () => AdoptingManager.adopt(plain),
        () => ref.SessionManager.inMemory(CWD, undefined, refRecords),
      ],
      slowOpts,
    ) as [Measurement, Measurement, Measurement];
    add("open.records", "ours", copied);
    add("open.adopt", "ours", adopted);
    add("open.records", "ref", refOpened);
    // The first context after opening computes the leaf's summary; later ones reuse it.
    add(
      "context.first",
      "ours",
      measure((sm: SessionManager) => sm.buildSessionContext(), {
        ...slowOpts,
        warmupMs: 0,
        warmupSamples: big ? 1 : 10,
        maxSamples: big ? 5 : 30,
        setup: () => AdoptingManager.adopt(plain),
      }),
    );
  }

  managerScenarios("ours", () => openOurs(text), session, pool, add);
  managerScenarios("ref", () => openRef(ref, text) as unknown as Subject, session, pool, add);
  return rows;
}
