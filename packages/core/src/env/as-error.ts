/**
 * `value` as an Error: itself when it is one, else a new one whose message is the string
 * thrown, or names what was thrown instead (a store of someone else's may reject with
 * anything, and `undefined` must read as a failure, not as nothing). The value is the cause.
 */
export function asError(value: unknown): Error {
  if (value instanceof Error) return value;
  const message = typeof value === "string" ? value : `non-error thrown: ${String(value)}`;
  return new Error(message, { cause: value });
}
