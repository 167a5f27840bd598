/** Temp directories exist while their owner runs and are gone after it. */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { removeTempDir, tempDir } from "../src/temp-dir.js";

let fileLong: string;
let madeInTest: string;
beforeAll(() => {
  fileLong = tempDir("pi-test-utils-file-");
});

describe("tempDir", () => {
  it("makes a fresh empty directory under the given prefix", () => {
    madeInTest = tempDir("pi-test-utils-test-");
    expect(existsSync(madeInTest)).toBe(true);
    expect(madeInTest).toMatch(/pi-test-utils-test-[^/]+$/);
    writeFileSync(join(madeInTest, "a.txt"), "x");
    expect(tempDir("pi-test-utils-test-")).not.toBe(madeInTest);
  });

  it("removes a directory made in a test when that test finishes, contents and all", () => {
    expect(existsSync(madeInTest)).toBe(false);
  });

  it("keeps a directory made in beforeAll for the whole file", () => {
    expect(existsSync(fileLong)).toBe(true);
  });

  it("removeTempDir removes one early, and again without error", () => {
    const dir = tempDir();
    removeTempDir(dir);
    expect(existsSync(dir)).toBe(false);
    expect(() => removeTempDir(dir)).not.toThrow();
  });
});

describe("tempDir in beforeEach", () => {
  const made: string[] = [];
  beforeEach(() => {
    made.push(tempDir("pi-test-utils-each-"));
  });

  it("gives the test its directory", () => {
    expect(existsSync(made[0] as string)).toBe(true);
  });

  it("removed the previous test's directory when that test finished", () => {
    expect(existsSync(made[0] as string)).toBe(false);
    expect(existsSync(made[1] as string)).toBe(true);
  });
});
