import { describe, expect, it } from "vitest";
import { createDeterministicEnv } from "../../src/env/env.js";
import { InvalidSessionError, loadText, SessionLoader } from "../../src/format/load-text.js";

const H3 = '{"type":"session","version":3,"id":"s3","timestamp":"t","cwd":"/w"}';
const H1 = '{"type":"session","id":"s1","timestamp":"t","cwd":"/w"}';
const A = '{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user"}}';
const V1 = '{"type":"message","timestamp":"t","message":{"role":"user","content":"hi"}}';
const env = () => createDeterministicEnv({ seed: 7 });

/** Feeds `text` to a loader in pieces of `size` characters. */
function loadInPieces(text: string, size: number) {
  const loader = new SessionLoader(env(), "<text>");
  for (let i = 0; i < text.length; i += size) loader.push(text.slice(i, i + size));
  return loader.finish();
}

describe("loadText and its streaming loader (SPEC §6.5)", () => {
  const texts = {
    current: `garbage\n${H3}\n${A}\n{"type":"session","id":"x"}\n{"type":"note"}\n[1]\n`,
    legacy: `garbage\n${H1}\n${V1}\nnot json\n${V1}\n{"type":"session","id":"x"}\n${V1}`,
  };

  for (const [name, text] of Object.entries(texts)) {
    it(`gives the same load whatever the piece size (${name} file)`, () => {
      const whole = loadText(text, env());
      for (const size of [1, 2, 7, 64]) expect(loadInPieces(text, size)).toEqual(whole);
    });
  }

  it("reports a current file's damage in line order, with the header's line and version", () => {
    const loaded = loadText(texts.current, env());
    expect(loaded.diagnostics.map((d) => [d.line, d.kind])).toEqual([
      [1, "invalid-json"],
      [4, "extra-header"],
      [5, "invalid-entry"],
      [6, "not-an-object"],
    ]);
    expect(loaded.entries.map((e) => e.id)).toEqual(["a"]);
    expect([loaded.version, loaded.headerLine, loaded.migrated]).toEqual([3, 2, false]);
    expect(loaded.rewrite).toBeUndefined();
  });

  it("migrates a legacy file from the lines it kept, damaged lines word for word (W4)", () => {
    const loaded = loadText(texts.legacy, env());
    expect([loaded.version, loaded.headerLine, loaded.migrated]).toEqual([1, 2, true]);
    expect(loaded.needsNewline).toBe(true);
    expect(loaded.entries).toHaveLength(3);
    expect(loaded.entryLines?.lineOf(2)).toBe(7);
    expect(loaded.diagnostics.map((d) => [d.line, d.kind])).toEqual([
      [1, "invalid-json"],
      [4, "invalid-json"],
      [6, "extra-header"],
    ]);
    const rewrite = loaded.rewrite ?? [];
    expect(rewrite[0]).toBe("garbage\n");
    expect(rewrite[3]).toBe("not json\n");
    expect(JSON.parse(rewrite[1] as string).version).toBe(3);
  });

  it("reports a non-numeric version once, with its line", () => {
    const loaded = loadText(`{"type":"session","version":"abc","id":"s"}\n${A}\n`, env());
    expect(loaded.diagnostics.map((d) => [d.line, d.kind])).toEqual([[1, "migration"]]);
    expect(loaded.migrated).toBe(false);
  });

  it("throws InvalidSessionError with the reason and its kind", () => {
    const cases: [string, string, string][] = [
      ["", "empty", "the file is empty"],
      ["nope\n\n", "no-records", "the file holds no JSON records"],
      [`${A}\n${H3}\n`, "invalid-header", "line 1: the first record is not a session header"],
    ];
    for (const [text, kind, reason] of cases) {
      const error = (() => {
        try {
          loadText(text, env(), "f.jsonl");
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(InvalidSessionError);
      expect(error).toMatchObject({ kind, reason });
      expect((error as Error).message).toBe("Session file is not a valid pi session: f.jsonl");
    }
  });
});
