/**
 * An environment variable set for some tests and put back afterwards as it was: a variable that
 * was unset is deleted again (assigning `undefined` to `process.env` would store the string
 * "undefined" instead).
 */
import { afterAll, beforeAll } from "vitest";

/** Sets `name` to `value`; returns what puts it back. */
function setEnv(name: string, value: string): () => void {
  const before = process.env[name];
  process.env[name] = value;
  return () => {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  };
}

/**
 * Sets `name` to `value` for the tests of the enclosing `describe` block, or of the file when
 * called at its top level: from the block's `beforeAll` to its `afterAll`.
 */
export function withEnv(name: string, value: string): void {
  let restore: (() => void) | undefined;
  beforeAll(() => {
    restore = setEnv(name, value);
  });
  afterAll(() => {
    restore?.();
    restore = undefined;
  });
}

/** Runs `fn` with `name` set to `value`, then puts the variable back (also when `fn` throws). */
export function runWithEnv<T>(name: string, value: string, fn: () => T): T {
  const restore = setEnv(name, value);
  try {
    return fn();
  } finally {
    restore();
  }
}
