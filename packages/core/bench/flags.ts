/**
 * Command-line flags of the benchmark scripts, read one way in all of them: `--name value` or
 * `--name=value`.
 */

/** The value of flag `--name`, or undefined when it is not given. */
export function flagValue(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** A positive number flag; `fallback` when it is absent or not a positive number. */
export function numberFlag(name: string, fallback: number): number {
  const raw = flagValue(name);
  const n = Number(raw);
  return raw !== undefined && Number.isFinite(n) && n > 0 ? n : fallback;
}
