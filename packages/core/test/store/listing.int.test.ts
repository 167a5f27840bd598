/**
 * Listing on real files: the SessionInfo rules (SPEC §10.5), streaming of big files,
 * progress, abort, missing directories, vanishing files, and no writes (W13). The cache has
 * its own file (listing-cache.int.test.ts).
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listAllSessions, listSessions, listSessionsInDir } from "../../src/store/listing.js";
import { buildSessionInfo, messageText } from "../../src/store/session-info.js";
import {
  generateSessions,
  header,
  loadReferenceDiscovery,
  messageEntry,
  plainInfo,
  progressShape,
  recordProgress,
  useTempDirs,
  writeLines,
} from "./listing-fixtures.js";

const { root, fresh } = useTempDirs("listing");

describe("SessionInfo of one file", () => {
  it("follows every rule of SPEC §10.5", () => {
    const dir = fresh();
    const path = writeLines(dir, "x.jsonl", [
      "",
      header("abc", "/w/p", { parentSession: "/w/parent.jsonl" }),
      { type: "session_info", id: "i1", name: "  Old  " },
      messageEntry("u1", { role: "user", content: "   " }, "2024-03-02T00:00:00.000Z"),
      messageEntry("a1", {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "t" },
          { type: "text", text: "A" },
          { type: "toolCall", id: "t", name: "n", arguments: {} },
          { type: "text", text: "B" },
        ],
        timestamp: Date.parse("2024-03-05T00:00:00.000Z"),
      }),
      messageEntry("r1", {
        role: "toolResult",
        content: "tool output",
        timestamp: Date.parse("2030-01-01T00:00:00.000Z"),
      }),
      "not json",
      messageEntry(
        "u2",
        {
          role: "user",
          content: [
            { type: "image", data: "", mimeType: "image/png" },
            { type: "text", text: "look" },
          ],
        },
        "2024-03-04T00:00:00.000Z",
      ),
      { type: "session_info", id: "i2", name: " New name " },
      messageEntry("u3", { role: "user" }, "2029-01-01T00:00:00.000Z"),
    ]);
    const info = buildSessionInfo(path);
    expect(info && plainInfo(info)).toEqual({
      path,
      id: "abc",
      cwd: "/w/p",
      name: "New name",
      parentSessionPath: "/w/parent.jsonl",
      created: "2024-03-01T10:00:00.000Z",
      // The assistant's numeric timestamp; tool results and content-less messages do not count.
      modified: "2024-03-05T00:00:00.000Z",
      // Every message entry, tool results and content-less ones included.
      messageCount: 5,
      // Whitespace is text: the first user message with non-empty text.
      firstMessage: "   ",
      allMessagesText: "    A B look",
    });
  });

  it("falls back to the header time, then the file mtime; an empty name clears it", () => {
    const dir = fresh();
    const a = writeLines(dir, "a.jsonl", [
      header("a", "/w"),
      { type: "session_info", name: "x" },
      { type: "session_info", name: "  " },
    ]);
    const b = writeLines(dir, "b.jsonl", [{ type: "session", id: "b", timestamp: "bad" }], {
      mtime: 1_600_000_000,
    });
    expect(buildSessionInfo(a)).toMatchObject({
      name: undefined,
      firstMessage: "(no messages)",
      messageCount: 0,
    });
    expect(buildSessionInfo(a)?.modified.toISOString()).toBe("2024-03-01T10:00:00.000Z");
    const infoB = buildSessionInfo(b);
    expect(infoB?.cwd).toBe("");
    expect(Number.isNaN(infoB?.created.getTime())).toBe(true);
    expect(infoB?.modified.getTime()).toBe(1_600_000_000_000);
  });

  it("drops files that are not sessions", () => {
    const dir = fresh();
    const paths = [
      writeLines(dir, "empty.jsonl", []),
      writeLines(dir, "blank.jsonl", ["", "  "]),
      writeLines(dir, "headerless.jsonl", [messageEntry("m", { role: "user", content: "x" })]),
      writeLines(dir, "late-header.jsonl", [{ type: "label" }, header("h", "/w")]),
      join(dir, "missing.jsonl"),
      dir,
    ];
    for (const path of paths) {
      expect(buildSessionInfo(path)).toBeNull();
    }
  });

  it("messageText: strings as they are, text blocks joined with one space", () => {
    expect(messageText("a b")).toBe("a b");
    expect(
      messageText([{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }]),
    ).toBe("a b");
    expect(messageText([{ type: "text" }, { type: "text", text: "b" }])).toBe(" b");
    expect(messageText(undefined)).toBe("");
    expect(messageText(null)).toBe("");
  });
});

describe("streaming", () => {
  it("big files, long lines and multi-byte characters across chunk boundaries read as R1.6 does", async () => {
    const ref = await loadReferenceDiscovery();
    const dir = fresh();
    const lines = [header("big", "/w")];
    // Odd-sized lines full of 2-, 3- and 4-byte characters, so chunk edges split characters.
    for (let k = 0; k < 3000; k++) {
      lines.push(
        messageEntry(`m${k}`, {
          role: k % 2 ? "assistant" : "user",
          content: `${k} ${"é日😀".repeat(k % 97)}`,
        }),
      );
    }
    // One line of 2.5 MiB: longer than two chunks.
    lines.push(messageEntry("long", { role: "user", content: "ü".repeat(1_300_000) }));
    lines.push({ type: "session_info", name: "end" });
    const path = writeLines(dir, "big.jsonl", lines);
    expect(statSync(path).size).toBeGreaterThan(3 * 1024 * 1024);
    const [expected] = await ref.SessionManager.listAll(dir);
    expect(expected).toBeDefined();
    const sync = buildSessionInfo(path);
    expect(sync && plainInfo(sync)).toEqual(expected && plainInfo(expected));
  });
});

describe("progress, abort and failures", () => {
  it("list: partial on the first, every 10th and the last file, filtered like the result", async () => {
    const dir = fresh();
    for (let i = 0; i < 25; i++) {
      writeLines(dir, `f${String(i).padStart(2, "0")}.jsonl`, [
        header(`s${i}`, i % 5 === 0 ? "/other" : "/w"),
      ]);
    }
    const { calls, callback } = recordProgress();
    const result = await listSessions(dir, { filterCwd: "/w", onProgress: callback, cache: null });
    expect(result).toHaveLength(20);
    const expectedShape = Array.from({ length: 25 }, (_, i) => {
      const loaded = i + 1;
      return `${loaded}/25${loaded === 1 || loaded % 10 === 0 || loaded === 25 ? "+" : ""}`;
    });
    expect(progressShape(calls)).toEqual(expectedShape);
    for (const call of calls) for (const info of call.partial ?? []) expect(info.cwd).toBe("/w");
    expect(calls.at(-1)?.partial).toHaveLength(20);
  });

  it("an aborted signal rejects with its reason, before and during the listing", async () => {
    const dir = fresh();
    generateSessions(dir, 40, 9);
    const pre = new AbortController();
    pre.abort(new Error("pre"));
    const none = recordProgress();
    await expect(
      listSessions(dir, { signal: pre.signal, onProgress: none.callback }),
    ).rejects.toThrow("pre");
    await expect(listSessions(join(dir, "missing"), { signal: pre.signal })).rejects.toThrow("pre");
    await expect(listAllSessions(dir, { signal: pre.signal })).rejects.toThrow("pre");
    expect(none.calls).toEqual([]);

    const mid = new AbortController();
    const seen: number[] = [];
    const reason = { why: "user" };
    const listing = listSessions(dir, {
      signal: mid.signal,
      cache: null,
      onProgress: (loaded) => {
        seen.push(loaded);
        if (loaded === 3) mid.abort(reason);
      },
    });
    await expect(listing).rejects.toBe(reason);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([1, 2, 3]);
  });

  it("a missing directory or root lists as []", async () => {
    const missing = join(root(), "no", "such");
    expect(await listSessions(missing)).toEqual([]);
    expect(await listAllSessions(missing)).toEqual([]);
    expect(existsSync(missing)).toBe(false);
  });

  it("files that vanish during the listing are dropped, not fatal", async () => {
    const dir = fresh();
    generateSessions(dir, 50, 21);
    const names = readdirSync(dir);
    const { calls, callback } = recordProgress();
    const result = await listSessionsInDir(dir, {
      cache: null,
      onProgress: (loaded, total, partial) => {
        if (loaded === 1)
          for (const n of names.slice(0, 30))
            if (existsSync(join(dir, n))) unlinkSync(join(dir, n));
        callback(loaded, total, partial);
      },
    });
    expect(calls).toHaveLength(50);
    expect(result.length).toBeLessThan(50);
  });
});

describe("W13: reading writes nothing", () => {
  it("listing leaves every byte and mtime as it was, torn tails included", async () => {
    const dir = fresh();
    generateSessions(dir, 80, 17);
    writeFileSync(join(dir, "torn.jsonl"), `${JSON.stringify(header("t", "/w"))}\n{"type":"mess`);
    const snapshot = () =>
      readdirSync(dir)
        .sort()
        .map((n) => {
          const p = join(dir, n);
          const hash = createHash("sha1").update(readFileSync(p)).digest("hex");
          return `${n} ${statSync(p).mtimeMs} ${hash}`;
        });
    const before = snapshot();
    await listSessions(dir, { filterCwd: "/w/a" });
    await listSessionsInDir(dir, { cache: null });
    await listAllSessions(root());
    for (const n of readdirSync(dir)) buildSessionInfo(join(dir, n));
    expect(snapshot()).toEqual(before);
  });
});
