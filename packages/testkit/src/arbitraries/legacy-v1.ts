/**
 * Version 1 session files (SPEC §2.3–§2.4): a header without `version` (or `version: 1`) carrying
 * the model settings, then a linear list of entries with no `id` or `parentId`; compactions point
 * at the first kept record by `firstKeptEntryIndex` (header at index 0). The index is sometimes a
 * forward reference, the header, or out of range, as real files and pi 1.6.0's own migration show.
 */
import fc from "fast-check";
import { isoFromMs } from "./common.js";
import { sessionHeaderArb } from "./header.js";
import { agentMessageArb, modelIdArb, providerArb, thinkingLevelArb } from "./messages.js";

/** Where a v1 compaction's `firstKeptEntryIndex` points. */
export interface LegacyCompaction {
  /** Index of the compaction among the records (header at 0). */
  readonly recordIndex: number;
  readonly firstKeptEntryIndex: number;
  /**
   * `entry`: an entry record (migration sets `firstKeptEntryId` to its id, forward references
   * included); `header` or `out-of-range`: migration leaves `firstKeptEntryId` out and
   * reports it.
   */
  readonly points: "entry" | "header" | "out-of-range";
}

type V1Body =
  | { kind: "message"; message: Record<string, unknown>; dropTotal: boolean }
  | { kind: "thinking_level_change"; thinkingLevel: string }
  | { kind: "model_change"; provider: string; modelId: string }
  | {
      kind: "compaction";
      summary: string;
      tokensBefore: number;
      mode: "earlier" | "forward" | "header" | "out-of-range";
      n: number;
    };

const v1Body: fc.Arbitrary<V1Body> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        kind: fc.constant("message" as const),
        message: agentMessageArb({
          roles: ["user", "assistant", "toolResult", "bashExecution"],
        }).map((m) => m as unknown as Record<string, unknown>),
        dropTotal: fc.boolean(),
      },
      { noNullPrototype: true },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        kind: fc.constant("thinking_level_change" as const),
        thinkingLevel: thinkingLevelArb,
      },
      { noNullPrototype: true },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        kind: fc.constant("model_change" as const),
        provider: providerArb,
        modelId: modelIdArb,
      },
      { noNullPrototype: true },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        kind: fc.constant("compaction" as const),
        summary: fc.string({ maxLength: 30 }),
        tokensBefore: fc.nat({ max: 300_000 }),
        mode: fc.constantFrom("earlier", "earlier", "earlier", "forward", "header", "out-of-range"),
        n: fc.nat(),
      },
      { noNullPrototype: true },
    ),
  },
);

/** What a v1 generator produces before garbage lines are added. */
export interface V1Records {
  readonly records: Record<string, unknown>[];
  readonly compactions: LegacyCompaction[];
}

function messageRecord(body: Extract<V1Body, { kind: "message" }>, ms: number): unknown {
  const message: Record<string, unknown> = { ...body.message, timestamp: ms };
  if (body.dropTotal && message.role === "assistant" && message.usage) {
    // Older pi wrote usage without totalTokens (about half the v1 corpus).
    const { totalTokens: _dropped, ...usage } = message.usage as Record<string, unknown>;
    message.usage = usage;
  }
  return message;
}

/** Version 1 records: header first, entries without ids, compaction targets classified. */
export function v1RecordsArb(maxEntries = 20): fc.Arbitrary<V1Records> {
  const header = fc.tuple(
    sessionHeaderArb({ version: null, parentSession: false }),
    fc.boolean(),
    providerArb,
    modelIdArb,
    thinkingLevelArb,
  );
  const steps = fc.array(
    fc.record({ delta: fc.nat(60_000), body: v1Body }, { noNullPrototype: true }),
    {
      maxLength: maxEntries,
    },
  );
  return fc.tuple(header, steps).map(([[h, explicitOne, provider, modelId, thinkingLevel], s]) => {
    const head: Record<string, unknown> = { type: "session" };
    if (explicitOne) head.version = 1;
    Object.assign(head, { id: h.id, timestamp: h.timestamp, cwd: h.cwd, provider, modelId });
    head.thinkingLevel = thinkingLevel;
    const records: Record<string, unknown>[] = [head];
    const pending: { r: number; body: Extract<V1Body, { kind: "compaction" }> }[] = [];
    let ms = Date.parse(h.timestamp);
    for (const { delta, body } of s) {
      ms += delta;
      const timestamp = isoFromMs(ms);
      switch (body.kind) {
        case "message":
          records.push({ type: "message", timestamp, message: messageRecord(body, ms) });
          break;
        case "thinking_level_change":
          records.push({ type: body.kind, timestamp, thinkingLevel: body.thinkingLevel });
          break;
        case "model_change":
          records.push({
            type: body.kind,
            timestamp,
            provider: body.provider,
            modelId: body.modelId,
          });
          break;
        case "compaction":
          pending.push({ r: records.length, body });
          records.push({ type: body.kind, timestamp, summary: body.summary });
          break;
      }
    }
    const total = records.length;
    const compactions = pending.map(({ r, body }): LegacyCompaction => {
      const index = indexFor(body.mode, body.n, r, total);
      const record = records[r] as Record<string, unknown>;
      records[r] = { ...record, firstKeptEntryIndex: index, tokensBefore: body.tokensBefore };
      const points = index === 0 ? "header" : index > 0 && index < total ? "entry" : "out-of-range";
      return { recordIndex: r, firstKeptEntryIndex: index, points };
    });
    return { records, compactions };
  });
}

/** A `firstKeptEntryIndex` of the requested kind for the compaction at record `r`. */
function indexFor(mode: string, n: number, r: number, total: number): number {
  switch (mode) {
    case "earlier":
      return r > 1 ? 1 + (n % (r - 1)) : 0;
    case "forward":
      return r + 1 < total ? r + 1 + (n % (total - r - 1)) : total + (n % 3);
    case "header":
      return 0;
    default:
      return n % 2 === 0 ? total + (n % 5) : -1 - (n % 3);
  }
}
