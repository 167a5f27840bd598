import { randomBytes, randomUUID } from "node:crypto";

/**
 * The only sources of time and randomness the engine uses. The pure middle never calls
 * `Date.now()` or `Math.random()`; it receives a `SessionEnv`, so tests can make ids and
 * timestamps deterministic.
 */
export interface SessionEnv {
  /** Current wall-clock time. */
  now(): Date;
  /** A random RFC 4122 version 4 UUID in lowercase 8-4-4-4-12 form. */
  randomUUID(): string;
  /** A time-ordered RFC 9562 version 7 UUID in lowercase 8-4-4-4-12 form. */
  uuidv7(): string;
}

/** Formats 16 bytes as a lowercase 8-4-4-4-12 UUID string. */
function formatUuid(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Builds a UUIDv7 from a millisecond time and 10 random bytes (RFC 9562 §5.7): 48-bit
 * big-endian time, version nibble 7, variant bits 10.
 */
export function uuidv7From(ms: number, random: Uint8Array): string {
  const bytes = new Uint8Array(16);
  let t = Math.max(0, Math.floor(ms));
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  for (let i = 0; i < 10; i++) bytes[6 + i] = random[i] ?? 0;
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return formatUuid(bytes);
}

/** The real clock and the OS random source. */
export const systemEnv: SessionEnv = {
  now: () => new Date(),
  randomUUID: () => randomUUID(),
  uuidv7: () => uuidv7From(Date.now(), randomBytes(10)),
};

/** Options for {@link createDeterministicEnv}. */
export interface DeterministicEnvOptions {
  /** Seed of the pseudo-random stream (default 1). */
  seed?: number;
  /** First timestamp in ms (default 2025-01-01T00:00:00.000Z). */
  startMs?: number;
  /** Milliseconds the clock advances on every `now()` call (default 1). */
  stepMs?: number;
}

/**
 * A reproducible env for tests and examples: a seeded xorshift stream for ids and a clock
 * that advances by a fixed step on every read.
 */
export function createDeterministicEnv(options: DeterministicEnvOptions = {}): SessionEnv {
  let state = (options.seed ?? 1) >>> 0 || 1;
  let ms = options.startMs ?? Date.UTC(2025, 0, 1);
  const step = options.stepMs ?? 1;
  const nextByte = (): number => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state & 0xff;
  };
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, nextByte);
  return {
    now: () => {
      const d = new Date(ms);
      ms += step;
      return d;
    },
    randomUUID: () => {
      const b = bytes(16);
      b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
      b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
      return formatUuid(b);
    },
    uuidv7: () => uuidv7From(ms, bytes(10)),
  };
}
