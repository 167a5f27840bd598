/**
 * The opt-in high-entropy detector: a long run of token characters whose characters are spread
 * like random ones (Shannon entropy per character at or above a threshold) is taken for a
 * secret, whatever its format. It finds keys no rule knows (a vendor's token, a random
 * password), and also things that are not secrets (hashes, ids, minified code), which is why it
 * is off unless asked for.
 */
import type { Detector, Finding } from "./detector.js";

/** Settings of the entropy detector. */
export interface EntropyOptions {
  /** Shortest run taken (default 24). */
  readonly minLength?: number;
  /** Bits per character at or above which a run is a secret (default 4.0). */
  readonly threshold?: number;
}

/** Letters, digits and the characters of base64 and base64url (`/` splits, as in paths). */
const RUN = /[A-Za-z0-9+_=-]+/g;
const HEX = /^[0-9a-fA-F-]+$/;

/** Shannon entropy of `s` in bits per character. */
export function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Whether a run looks random enough to be a secret. */
export function isHighEntropy(run: string, minLength: number, threshold: number): boolean {
  if (run.length < minLength) return false;
  // Hex (hashes, commit ids, UUIDs) fills sessions and is rarely a secret on its own.
  if (HEX.test(run)) return false;
  // Both letters and digits: words joined by `_` or `-` are not secrets.
  if (!/[0-9]/.test(run) || !/[A-Za-z]/.test(run)) return false;
  return shannonEntropy(run) >= threshold;
}

/** The entropy detector with `options`. */
export function entropyDetector(options: EntropyOptions = {}): Detector {
  const minLength = options.minLength ?? 24;
  const threshold = options.threshold ?? 4.0;
  return {
    source: "entropy",
    literals: undefined,
    detect: async (texts) =>
      texts.map((text) => {
        const out: Finding[] = [];
        for (const m of text.matchAll(RUN)) {
          if (isHighEntropy(m[0], minLength, threshold)) {
            out.push({ start: m.index, end: m.index + m[0].length, rule: "high-entropy" });
          }
        }
        return out;
      }),
  };
}
