/**
 * Plants fake secrets into the free-text fields of generated sessions: message text, thinking,
 * provider signatures (which can carry reasoning text), tool-call arguments, tool results and
 * their `details`, custom entry data, custom message details, compaction and branch summaries,
 * labels, session names, and — as JSON carried in a tool result's text — nested one level down,
 * where a secret whose rule wants a name before it is written as a member of that name
 * (`"AWS_SECRET_ACCESS_KEY": "…"`).
 */
import type { PlantedSecret } from "./fake-secrets.js";

/** An entry as the arbitraries build it (a plain JSON object). */
type Entry = object;

/** String fields that hold text (any entry). */
const TEXT_FIELDS = new Set([
  "text",
  "thinking",
  "summary",
  "errorMessage",
  "note",
  "command",
  "output",
  "thinkingSignature",
  "textSignature",
  "thoughtSignature",
]);
/** Provider values the redactor leaves alone by design (link ids; image bytes below). */
const OPAQUE = new Set(["toolCallId"]);
/** Subtrees whose every string is free text. */
const FREE_SUBTREES = new Set(["arguments", "details"]);

/** Where a string can be planted: the object holding it and its key. */
interface Slot {
  readonly holder: Record<string, unknown> | unknown[];
  readonly key: string | number;
  readonly entry: number;
  /** A tool result's text block (may carry JSON). */
  readonly toolText: boolean;
}

function slotsOf(entry: Entry, index: number): Slot[] {
  const slots: Slot[] = [];
  const walk = (
    value: unknown,
    holder: Slot["holder"],
    key: string | number,
    free: boolean,
    toolText: boolean,
  ) => {
    if (typeof value === "string") {
      if (free || (typeof key === "string" && TEXT_FIELDS.has(key)))
        slots.push({ holder, key, entry: index, toolText });
      return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) walk(value[i], value, i, free, toolText);
      return;
    }
    if (value === null || typeof value !== "object") return;
    const obj = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      if (
        (obj.type === "image" && k === "data") ||
        OPAQUE.has(k) ||
        (obj.type === "toolCall" && k === "id")
      )
        continue;
      const sub = free || FREE_SUBTREES.has(k);
      walk(v, obj, k, sub, toolText || obj.role === "toolResult");
    }
  };
  const e = entry as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(e)) {
    if (
      ["type", "id", "parentId", "timestamp", "targetId", "firstKeptEntryId", "fromId"].includes(k)
    )
      continue;
    const free =
      (k === "data" && e.type === "custom") ||
      (k === "label" && e.type === "label") ||
      (k === "name" && e.type === "session_info") ||
      (k === "content" && e.type === "custom_message") ||
      FREE_SUBTREES.has(k);
    walk(v, e, k, free, false);
  }
  // A string `content` of a message is its text.
  const message = e.message as Record<string, unknown> | undefined;
  if (message !== undefined && typeof message.content === "string") {
    slots.push({
      holder: message,
      key: "content",
      entry: index,
      toolText: message.role === "toolResult",
    });
  }
  return slots;
}

/** Where secrets went, by entry index. */
export interface Planting<T extends Entry> {
  readonly entries: T[];
  readonly planted: {
    readonly entry: number;
    readonly secret: PlantedSecret;
    readonly asJson: boolean;
  }[];
}

/**
 * A deep copy of `entries` with each of `secrets` written into the slot `picks[i]` chooses
 * (modulo the slot count), beside what was there; `json[i]` carries it as JSON in a tool
 * result's text when that slot is one. Entries without slots get none.
 */
export function plant<T extends Entry>(
  entries: readonly T[],
  secrets: readonly PlantedSecret[],
  picks: readonly number[],
  json: readonly boolean[],
): Planting<T> {
  const copy = structuredClone(entries) as T[];
  const slots = copy.flatMap((e, i) => slotsOf(e, i));
  const planted: Planting<T>["planted"] = [];
  if (slots.length === 0) return { entries: copy, planted };
  // One secret per slot: a secret wrapped in JSON with another one inside would be spelled
  // with escapes of escapes, which says nothing more about the redactor and much about the test.
  const used = new Set<number>();
  secrets.forEach((secret, i) => {
    let at = (picks[i] ?? 0) % slots.length;
    for (let tries = 0; used.has(at) && tries < slots.length; tries++) at = (at + 1) % slots.length;
    if (used.has(at)) return;
    used.add(at);
    const slot = slots[at] as Slot;
    const before = (slot.holder as Record<string | number, unknown>)[slot.key] as string;
    const asJson =
      slot.toolText && json[i] === true && JSON.stringify(secret.text) === `"${secret.text}"`;
    const env =
      secret.name === undefined ? { TOKEN: secret.text } : { [secret.name]: secret.secret };
    const value = asJson
      ? JSON.stringify({ output: before, env }, null, 2)
      : `${before} ${secret.text} .`;
    (slot.holder as Record<string | number, unknown>)[slot.key] = value;
    planted.push({ entry: slot.entry, secret, asJson });
  });
  return { entries: copy, planted };
}
