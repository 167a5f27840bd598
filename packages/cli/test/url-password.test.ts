import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { isNamedIndexInMissingFolder } from "../src/io/named-index-folder.js";
import { withoutPassword } from "../src/sync/url-password.js";

describe("withoutPassword", () => {
  it.each([
    ["postgres://alice:p@ss-w0rd@127.0.0.1:1/db", "postgres://alice:***@127.0.0.1:1/db"],
    ["postgres://alice:s3cr/et@host/db", "postgres://alice:***@host/db"],
    ["postgres://me:pw@h:5432/db?password=x&a=1", "postgres://me:***@h:5432/db?password=***&a=1"],
    ["postgresql://bob@host/db", "postgresql://bob@host/db"],
    ["postgres://host/db?x=a:b@c", "postgres://host/db?x=a:b@c"],
  ])("hides the password of %s", (url, said) => {
    expect(withoutPassword(url)).toBe(said);
    // What a URL parser takes for the password never shows.
    const password = URL.canParse(url) ? decodeURIComponent(new URL(url).password) : "";
    if (password !== "") expect(withoutPassword(url)).not.toContain(password);
  });
});

describe("isNamedIndexInMissingFolder", () => {
  it("is a typo only for a named file whose folder does not exist, never the built-in one", () => {
    const dir = tempDir();
    const builtIn = join(dir, "cache", "pi-sessions", "index.sqlite");
    expect(isNamedIndexInMissingFolder(join(dir, "typo", "x.sqlite"), builtIn, dir)).toBe(true);
    expect(isNamedIndexInMissingFolder(builtIn, builtIn, dir)).toBe(false);
    expect(isNamedIndexInMissingFolder(join(dir, "x.sqlite"), builtIn, dir)).toBe(false);
    expect(isNamedIndexInMissingFolder("x.sqlite", builtIn, dir)).toBe(false);
  });
});
