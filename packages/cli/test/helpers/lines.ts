/**
 * An independent reading of a file's lines for the repair and migration tests: which lines a
 * loader cannot use (not JSON, or JSON but not an object), straight from the bytes, without
 * any code of the package under test.
 */

/** The non-blank lines of `bytes` that do not parse to a JSON object, as bytes, in order. */
export function unparseableLines(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    const line = bytes.subarray(start, end);
    const text = line.toString("utf8");
    if (text.trim() !== "") {
      let value: unknown;
      let ok = true;
      try {
        value = JSON.parse(text);
      } catch {
        ok = false;
      }
      if (!ok || typeof value !== "object" || value === null || Array.isArray(value))
        out.push(line);
    }
    start = end + 1;
  }
  return out;
}
