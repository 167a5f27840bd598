/**
 * What the bench scripts share: their `--name=value` flags and the user message each append
 * writes (the same in the bench, the profile and the floors' rows).
 */

/** The number a `--name=N` flag gives, or `fallback` when it is absent. */
export function flag(name: string, fallback: number): number {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.slice(name.length + 3)) : fallback;
}

/** The text a `--name=text` flag gives, or undefined when it is absent. */
export function textFlag(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** The `i`th user message a writer appends (about 270 bytes of content). */
export function userMessage(i: number) {
  return {
    role: "user" as const,
    content: `message ${i}: ${"lorem ipsum ".repeat(20)}`,
    timestamp: 1_700_000_000_000 + i,
  };
}
