import { homedir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { defaultIndexFile } from "../src/index.js";

test("the index lives in PI_SESSIONS_INDEX, else the XDG cache, else ~/.cache", () => {
  expect(defaultIndexFile({ PI_SESSIONS_INDEX: "/x/i.db", XDG_CACHE_HOME: "/c" })).toBe("/x/i.db");
  expect(defaultIndexFile({ XDG_CACHE_HOME: "/c" })).toBe("/c/pi-sessions/index.sqlite");
  expect(defaultIndexFile({ PI_SESSIONS_INDEX: "", XDG_CACHE_HOME: "relative" })).toBe(
    join(homedir(), ".cache", "pi-sessions", "index.sqlite"),
  );
  expect(defaultIndexFile({})).toBe(join(homedir(), ".cache", "pi-sessions", "index.sqlite"));
});
