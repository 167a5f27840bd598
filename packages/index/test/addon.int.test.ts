import Database from "better-sqlite3";
import { expect, test } from "vitest";

test("the native addon loads in this Node and its SQLite has FTS5", () => {
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE t USING fts5(x)");
  db.prepare("INSERT INTO t(x) VALUES (?)").run("hello brave new world");
  const row = db.prepare("SELECT x FROM t WHERE t MATCH ?").get("brave") as { x: string };
  expect(row.x).toBe("hello brave new world");
  db.close();
});
