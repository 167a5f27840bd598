/**
 * Pass 1: which strings of the file are secrets. Each raw line is first searched, in one pass,
 * for every literal that gates a detector (and for `\u` or `\/`, the two escapes that could
 * spell a literal differently); a line without any is skipped unparsed, since no gated rule can
 * match any of its strings. The rest are split into segments, and each segment goes only to the
 * detectors whose literals it holds, in batches of {@link BATCH_CHARS}. Each object member
 * whose name holds a detector's literal also goes to that detector as `"name":"value"`, so a
 * rule that wants a name before the secret finds it in JSON; only what it finds inside the
 * value counts.
 */

import { type LineSegments, lineSegments, type Member } from "../json/segments.js";
import {
  type CharFrequency,
  LiteralScanner,
  type ScanLiteral,
} from "../literals/literal-scanner.js";
import type { RequiredLiterals } from "../literals/required-literals.js";
import type { Detector } from "../rules/detector.js";

/** Characters of text handed to one detector call. */
export const BATCH_CHARS = 4 * 1024 * 1024;

/** Escapes that may spell a raw-safe character another way: lines holding them are read. */
export const ESCAPE_TRIGGERS = ["\\u", "\\/"] as const;

/** A secret found in pass 1 and the detector that named it. */
export interface KnownSecret {
  readonly rule: string;
  readonly source: string;
  /** The detector's place in the list: the first listed wins when two name one string. */
  readonly rank: number;
}

/** The part of a text in which findings count (`[start, end)`). */
type Span = readonly [number, number];

/** Texts waiting for one detector, each with the part where findings count (all of it when absent). */
interface Batch {
  texts: string[];
  spans: (Span | undefined)[];
  chars: number;
}

/** A member as JSON writes it, `"name":"value"`: the value starts `name.length + 4` in. */
export function memberText(member: Member): string {
  return `"${member.name}":"${member.value}"`;
}

/** Scan literals of `literals` tagged `tag`. */
export function scanLiterals<T>(literals: readonly RequiredLiterals[], tag: T): ScanLiteral<T>[] {
  return literals.flatMap((l) =>
    l.literals.map((text) => ({ text, ignoreCase: l.ignoreCase, tag })),
  );
}

/** Runs pass 1 over `lines`; the segments of lines read are kept in `cache` for pass 2. */
export async function detectSecrets(
  lines: readonly string[],
  detectors: readonly Detector[],
  isAllowed: (secret: string) => boolean,
  cache: Map<number, LineSegments>,
  frequency: CharFrequency,
): Promise<Map<string, KnownSecret>> {
  const known = new Map<string, KnownSecret>();
  const ungated = detectors.flatMap((d, i) => (d.literals === undefined ? [i] : []));
  const everyLine = ungated.length > 0;
  const scanner = new LiteralScanner<number>(
    [
      ...detectors.flatMap((d, i) => (d.literals === undefined ? [] : scanLiterals(d.literals, i))),
      ...ESCAPE_TRIGGERS.map((text) => ({ text, ignoreCase: false, tag: -1 })),
    ],
    frequency,
  );
  const batches: Batch[] = detectors.map(() => ({ texts: [], spans: [], chars: 0 }));

  const flush = async (index: number): Promise<void> => {
    const batch = batches[index] as Batch;
    if (batch.texts.length === 0) return;
    const detector = detectors[index] as Detector;
    const { texts, spans } = batch;
    batch.texts = [];
    batch.spans = [];
    batch.chars = 0;
    const findings = await detector.detect(texts);
    findings.forEach((list, k) => {
      const text = texts[k] as string;
      const [start, end] = spans[k] ?? [0, text.length];
      for (const f of list) {
        const secret = text.slice(Math.max(f.start, start), Math.min(f.end, end));
        if (secret.length === 0 || isAllowed(secret)) continue;
        const had = known.get(secret);
        if (had === undefined || had.rank > index) {
          known.set(secret, { rule: f.rule, source: detector.source, rank: index });
        }
      }
    });
  };

  const add = async (d: number, text: string, span?: Span): Promise<void> => {
    if (d < 0) return;
    const batch = batches[d] as Batch;
    batch.texts.push(text);
    batch.spans.push(span);
    batch.chars += text.length;
    if (batch.chars >= BATCH_CHARS) await flush(d);
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!everyLine && !scanner.test(line)) continue;
    const segs = lineSegments(line);
    // Kept only when few lines are read: with an ungated detector every line is, and keeping
    // them all would hold the whole file twice.
    if (!everyLine) cache.set(i, segs);
    for (const seg of segs.segments) {
      const targets = scanner.tags(seg.text);
      // Detectors that guess leave provider signatures alone (base64 looks random).
      if (!seg.payload) for (const d of ungated) targets.add(d);
      for (const d of targets) await add(d, seg.text);
    }
    for (const member of segs.members) {
      const targets = scanner.tags(member.name);
      if (targets.size === 0) continue;
      const text = memberText(member);
      // Only what is found inside the value counts (a rule may report the name with it).
      const value: Span = [member.name.length + 4, text.length - 1];
      for (const d of targets) await add(d, text, value);
    }
  }
  for (let d = 0; d < detectors.length; d++) await flush(d);
  return known;
}
